# C types for state/__init__.py where it is built by Cython (RULESDSL_ENGINE=native):
# State is an extension type whose fields Machine declares (machine.pxd)
from rulesdsl.engine.state.machine cimport Machine

cdef class State(Machine):
    pass
