# C types for state/__init__.py where it is built by Cython (RULESDSL_ENGINE=native):
# State is an extension type whose fields Machine declares (machine.pxd)
from rulesdsl.engine.state.machine cimport Machine

cdef class State(Machine):
    # called by C from apply and playout, not looked up
    cpdef _apply_chosen(self, seat, tuple chosen)
