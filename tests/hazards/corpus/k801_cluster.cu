bool clusters(const cudaDeviceProp& prop) { return prop.clusterLaunch != 0; }
