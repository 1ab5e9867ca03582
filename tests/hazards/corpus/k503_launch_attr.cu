void run(cudaLaunchConfig_t* cfg, cudaLaunchAttribute* attr) {
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  cfg->attrs = attr;
}
