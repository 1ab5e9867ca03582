int f() { int clusterLaunch = 0; return clusterLaunch; }
