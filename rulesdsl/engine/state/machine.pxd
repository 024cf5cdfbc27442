# C types for machine.py where it is built by Cython (RULESDSL_ENGINE=native, see
# engine/native_engine.py); the pure-Python module reads none of this.
import cython

cdef unsigned long long _GOLDEN, _MIX1, _MIX2, _MASK64, _MASK32

# the shuffle's arithmetic in 64-bit unsigned C integers: no Python int per step
@cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, b=cython.ulonglong,
               n=cython.ulonglong)
cdef unsigned long long _shuffled64(list z, unsigned long long x) except? 0
