struct Version { int major, minor; };
bool new_enough(const Version& v) { return v.major >= 2 && v.minor >= 1; }
int lib_code(const Version& v) { return v.major * 10 + v.minor; }
