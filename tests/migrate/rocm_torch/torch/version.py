__version__ = "2.8.0+rocm6.4"
cuda = None
hip = "6.4.43482"
