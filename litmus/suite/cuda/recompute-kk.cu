// Source: Elnawawy, Alshboul, Tuck, Solihin, "Efficient Checkpointing of
// Loop-Based Codes for Non-Volatile Main Memory" (PACT 2017) and Elnawawy's
// thesis, Figures 3.1 and 3.4 (Recompute: the kk loop, its index
// mini-transaction, the recovery), RECONSTRUCTED, not transcribed: the CUDA a
// programmer would write for our reconstructions litmus/suite/papers/recompute-kk
// .litmus and its +next, +next+guard and +fix variants (the figures' text was not
// available to us; specs/papers.md, "Provenance"). The scheme is written for one
// CPU thread with clwb + sfence; here it is one GPU thread with gpmc.cuh's
// gpmc_clwb and gpmc_sfence, so that the persist operations are the same.
//
// Entries: mm (the main loop, every variant); fixIndex (the roll-forward as issue
// 12 describes it: neither persisted nor followed by clearing insideTxKK) and
// fixIndex_fix (persists it and clears insideTxKK); recompute (from the last
// completed pass, kk < lastPersistedKK: the described recovery), recompute_next
// (from the computed resume point nextII/kkBound) and recompute_guard (the same,
// skipped when the run had finished).
//
// lastPersistedKK names the last pass completed, (0, -1) at the start. The index
// is one struct on one line. C = A x B with N = 2 rows of one column and N = 2
// passes: {1*5 + 2*7, 3*5 + 4*7} = {19, 43}.

struct Index {
    int lastPersistedII, lastPersistedKK;
    int bkII, bkKK;
    int insideTxKK;
};

static __device__ __forceinline__ void persist(const volatile void *p)
{
    gpmc_clwb(p);
    gpmc_sfence();
}

__global__ void mm(const int *A, const int *B, int *C, Index *ix, int n)
{
    // resume at the pass after (lastPersistedII, lastPersistedKK)
    int ii = ix->lastPersistedII;
    int kk = ix->lastPersistedKK + 1;
    if (kk >= n) {
        kk = 0;
        ii++;
    }
    for (; ii < n; ii++, kk = 0) {
        for (; kk < n; kk++) {
            C[ii] += A[ii * n + kk] * B[kk];
            persist(&C[ii]);                    // persist the tile
            ix->bkII = ix->lastPersistedII;     // index mini-transaction
            ix->bkKK = ix->lastPersistedKK;
            persist(&ix->bkII);
            ix->insideTxKK = 1;
            persist(&ix->insideTxKK);
            ix->lastPersistedII = ii;
            ix->lastPersistedKK = kk;
            persist(&ix->lastPersistedII);
            ix->insideTxKK = 0;
            persist(&ix->insideTxKK);
        }
    }
}

// The resume point after (lastPersistedII, lastPersistedKK), for recompute_next.
static __device__ __forceinline__ void bound(Index *ix, int *nextII,
                                             int *kkBound, int n)
{
    int ii = ix->lastPersistedII;
    int kk = ix->lastPersistedKK + 1;
    if (kk >= n) {
        kk = 0;
        ii++;
    }
    *nextII = ii;
    *kkBound = kk;
}

// Recovery, step 1: if the crash hit the mini-transaction, roll the index
// forward to the pass after the backup; then compute the resume point.
__global__ void fixIndex(Index *ix, int *nextII, int *kkBound, int n)
{
    if (ix->insideTxKK) {
        int ii = ix->bkII;
        int kk = ix->bkKK + 1;
        if (kk >= n) {
            kk = 0;
            ii++;
        }
        ix->lastPersistedII = ii;
        ix->lastPersistedKK = kk;
    }
    bound(ix, nextII, kkBound, n);
}

// The same, with the roll-forward persisted and insideTxKK cleared (fix 3).
__global__ void fixIndex_fix(Index *ix, int *nextII, int *kkBound, int n)
{
    if (ix->insideTxKK) {
        int ii = ix->bkII;
        int kk = ix->bkKK + 1;
        if (kk >= n) {
            kk = 0;
            ii++;
        }
        ix->lastPersistedII = ii;
        ix->lastPersistedKK = kk;
        persist(&ix->lastPersistedII);
        ix->insideTxKK = 0;
        persist(&ix->insideTxKK);
    }
    bound(ix, nextII, kkBound, n);
}

// Recovery, step 2: zero the tile in flight and recompute its completed passes.
// As described: the last completed pass's row, passes kk < lastPersistedKK.
__global__ void recompute(const int *A, const int *B, int *C, Index *ix, int n)
{
    int ii = ix->lastPersistedII;
    C[ii] = 0;
    int end = ix->lastPersistedKK;
    for (int kk = 0; kk < end; kk++)
        C[ii] += A[ii * n + kk] * B[kk];
    persist(&C[ii]);
}

// Fix 1: the row of the computed resume point, up to its pass.
__global__ void recompute_next(const int *A, const int *B, int *C,
                               const int *nextII, const int *kkBound, int n)
{
    int ii = *nextII;
    C[ii] = 0;
    int end = *kkBound;
    for (int kk = 0; kk < end; kk++)
        C[ii] += A[ii * n + kk] * B[kk];
    persist(&C[ii]);
}

// Fix 2: nothing to recompute when the run had finished.
__global__ void recompute_guard(const int *A, const int *B, int *C,
                                const int *nextII, const int *kkBound, int n)
{
    int ii = *nextII;
    if (ii >= n)
        return;
    C[ii] = 0;
    int end = *kkBound;
    for (int kk = 0; kk < end; kk++)
        C[ii] += A[ii * n + kk] * B[kk];
    persist(&C[ii]);
}
