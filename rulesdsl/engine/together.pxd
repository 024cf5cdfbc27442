# C types for together.py where it is built by Cython (RULESDSL_ENGINE=native): the
# decision of `ask together` reads its hidden locals' places as C fields
cdef class AskTogether:
    cdef public object inner, span, fast, who_source, bind_source
    cdef public Py_ssize_t binder, seats, k, picks, done
