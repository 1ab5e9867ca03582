#ifndef STENCIL_CFG_H
#define STENCIL_CFG_H

#if 0
// Old experiment: one huge block per tile. Kept for reference only.
#define BX 128
#define BY 128
#else
#define BX 32
#define BY 16
#endif

#define RADIUS 4

#endif  // STENCIL_CFG_H
