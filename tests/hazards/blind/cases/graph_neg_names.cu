#include <vector>
struct graph_t { std::vector<int> nodes; };
void add_node(graph_t& graph, int v) { graph.nodes.push_back(v); }
int graph_launch(graph_t& g) { return (int)g.nodes.size(); }
void instantiate(graph_t& graph) { add_node(graph, graph_launch(graph)); }
