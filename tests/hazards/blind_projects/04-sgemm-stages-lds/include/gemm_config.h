#pragma once
// Block tile of the fp32 GEMM, tuned on sm_90 (228 KiB shared memory per SM).
#define BM 128
#define BN 128
#define BK 32
#define STAGES 3
#define TM 8
#define TN 8
#define GEMM_THREADS ((BM / TM) * (BN / TN))
