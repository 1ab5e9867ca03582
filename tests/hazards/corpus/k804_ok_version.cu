struct Version { int major; int minor; };
bool ok(const char* name) { return name[0] == 'M'; }
