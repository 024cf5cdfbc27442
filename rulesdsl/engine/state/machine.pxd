# C types for machine.py where it is built by Cython (RULESDSL_ENGINE=native, see
# engine/native_engine.py); the pure-Python module reads none of this.
import cython

cdef unsigned long long _GOLDEN, _MIX1, _MIX2, _MASK64, _MASK32

# the shuffle's arithmetic in 64-bit unsigned C integers: no Python int per step
@cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, b=cython.ulonglong,
               n=cython.ulonglong)
cdef unsigned long long _shuffled64(list z, unsigned long long x) except? 0

# the state's fields as a C struct (State is this type's subclass, state/__init__.pxd):
# the engine and a game's native module read them without a Python attribute lookup
cdef class Machine:
    cdef public object game, prog
    cdef public list zones, loc, vars, frames, winners
    cdef public object rng, over, _history, _events, cancelled, effect_depth, pending
    cdef public object seed, _actions, _origin, _origin_due, memo, scenario, inferred
    cdef public object exploring
    cdef public object chance
    cdef public object searched
    # run is called by C from the state's apply (State._apply_chosen), not looked up
    cpdef run(self, seat=*, chosen=*)
