#include <vector>
struct Graph { std::vector<std::vector<int>> adj; };
int degree(const Graph& graph, int v) { return (int)graph.adj[v].size(); }
__global__ void bfs_step(const int* graph, int* frontier, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) frontier[i] = graph[i];
}
void launch_graph_kernel(const int* graph, int* f, int n) { bfs_step<<<(n + 255) / 256, 256>>>(graph, f, n); }
