struct Version { int major, minor; };
bool new_enough(const Version& v) { return v.major >= 2; }
