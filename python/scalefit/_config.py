"""Where make install put libscalefit."""
LIBRARY = "/usr/local/lib/libscalefit.so.0"
