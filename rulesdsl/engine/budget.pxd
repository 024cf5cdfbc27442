# C types for budget.py where it is built by Cython (RULESDSL_ENGINE=native): the counters
# are C integers, which a game's native module spends from without a Python call
cdef class Budget:
    cdef public long long work, moves, work_limit, moves_limit, list_length, text_length
    cdef public long long short_text, texts, texts_limit
