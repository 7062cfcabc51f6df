// Source: Gope et al., "A Case for Scoped Persist Barriers in GPUs" (GPGPU 2018),
// Algorithm 2, RECONSTRUCTED, not transcribed: the CUDA a GPU programmer would
// write for our reconstruction litmus/suite/papers/gope-alg2.litmus (the
// algorithm's text was not available to us; specs/papers.md, "Provenance").
// Level-by-level B+tree insert with leaf splits and scoped persist barriers: each
// CTA inserts one key into a full leaf of its subtree and splits it; its two
// threads write the two new leaves (copy-on-write, fresh nodes); a CTA-scope
// persist barrier (the algorithm's sync_barrier_wg); thread 0 writes the
// subtree's new inner node (two children, a separator); a kernel-scope persist
// barrier (sync_barrier_kr); global thread 0 writes the new root and, after a
// thread-scope barrier, publishes it through the root pointer.
//
// A node is one 128-byte line of 32 keys (`unsigned`), so each thread's node is
// on its own line, as in the transcription (whose nodes are 16 8-byte words).
// CTA c: old leaf {10+20c, 20+20c}, inserts 15+20c. New leaves: thread 2c writes
// node 2c = {10+20c, 15+20c}, thread 2c+1 node 2c+1 = {20+20c}; inner node c =
// {2, 20+20c}; the root = 30.

#define NODE 32                         // keys per node: one cache line

__global__ void insert(unsigned *leaf, unsigned *inner, unsigned *root,
                       unsigned *rootptr)
{
    unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned first = blockIdx.x * 20 + 10;  // the full leaf's first key
    unsigned *node = &leaf[gtid * NODE];
    // level 0: the split halves of the leaf
    if (threadIdx.x == 0) {
        node[0] = first;
        node[1] = first + 5;            // the inserted key
    } else {
        node[0] = first + 10;           // the split sibling
    }
    gpmc_pbar_wg();                     // sync_barrier_wg
    // level 1: the subtree's new inner node
    if (threadIdx.x == 0) {
        unsigned *in = &inner[blockIdx.x * NODE];
        in[0] = 2;                      // two children
        in[1] = first + 10;             // separator
    }
    gpmc_pbar_kr();                     // sync_barrier_kr
    // level 2: the new root, then the root pointer
    if (gtid == 0) {
        *root = 30;
        gpmc_pbar_wi();
        *rootptr = 1;
    }
}
