// Source: Pandey, Kamath, Basu, "GPM: Leveraging Persistent Memory from a GPU"
// (ASPLOS 2022), Figure 6 (HCL logging) and its recovery, as the paper's artifact
// implements them: csl-iisc/GPM-ASPLOS22 at commit 0bde4698,
// GPMBench/transactional/gpKVS/src/gpu_hash.h (logDummy, hash_insert_2choice,
// invalidateLog, clearLogs, checkLogValid, recoverFromLog), with the HCL
// ("managed") log of LibGPM/libgpmlog.cuh at f8e340d8 (gpmlog_insert_managed,
// gpmlog_clear_managed, gpmlog_get_size, gpmlog_read_managed) and libgpm.cuh's
// gpm_memcpy_nodrain (volatile stores), gpm_memcpy (the same, then
// gpm_persist) and gpm_persist/gpm_drain (__threadfence_system), inlined.
// Written here from that code, reduced to the sizes of its transcription
// litmus/suite/papers/gpm-hcl-kvs.litmus (and the +skipdummy,
// +skipdummy+logfirst and +fix variants, whose fixes are the _skipdummy,
// _logfirst and _fix entries below).
//
// What differs from the artifact, and why:
// - One bucket of two lanes (gpKVS: 8 lanes, many buckets), one element per
//   thread. The warp ballots (__ballot_sync, __ffs: not in gpmc's PTX subset)
//   that choose a lane become the test of the lane the element lands in: its
//   thread's own. The shared `count` bookkeeping of the insert loops, the
//   second bucket and the while(1) retry are left out: each element is done in
//   one round, as in the transcription.
// - loc_t is uint64_t in gpKVS; here a 4-byte word, and log_entry_t keeps
//   {simd_lane, sig, loc} (hash names the bucket; there is one), so that a
//   record is three HCL words, as in the transcription.
// - The HCL log's geometry is the artifact's: partition p's k-th 4-byte word is
//   at byte p*4 + 128*k of the log, head[p] is the byte offset after its last
//   word (initially p*4), and a partition's size is head/128*4 + head%4 bytes.
//   Records are whole words, so gpm_memcpy_nodrain's byte and 8-byte paths and
//   the log's tail check (it never fills here) are left out.
// - gpmc's kernel arguments are addresses of locations and constants: the
//   gpmlog struct is passed as its two arrays, `start` (the log) and `head`.
// - logDummy's record is an uninitialised local, as in the artifact.

#include <stddef.h>                     // size_t

typedef unsigned sign_t;
typedef unsigned loc_t;                 // gpKVS: uint64_t (see above)

#define ELEM_NUM 2                      // lanes per bucket (gpKVS: 8)
#define WARP_SIZE 32
#define BLOCK_SIZE 128                  // HCL: a warp's words share a line
#define WORD_SIZE 4

typedef struct bucket_s {
    sign_t sig[ELEM_NUM];
    loc_t loc[ELEM_NUM];
} bucket_t;

typedef struct ielem_s {                // gpKVS also has the hash
    sign_t sig;
    loc_t loc;
} ielem_t;

typedef struct log_entry_s {            // gpKVS also has the hash
    int simd_lane;
    sign_t sig;
    loc_t loc;
} log_entry_t;

static __device__ __forceinline__ void gpm_persist()
{
    __threadfence_system();
}

// gpmlog_insert_managed: the record's words, persist, then the head (persisted)
static __device__ __forceinline__ int gpmlog_insert(char *start, size_t *head,
                                                    void *var, size_t size,
                                                    int partition)
{
    int tid = partition;
    size_t temp_head = head[tid];
    size_t i = 0;
    for (; i < size;) {
        // gpm_memcpy_nodrain of one word
        *(volatile unsigned *)(start + temp_head) = *(unsigned *)((char *)var + i);
        temp_head += WORD_SIZE;
        i += WORD_SIZE;
        // Reached end of WORD_SIZE byte segment: move to next segment
        if (temp_head % WORD_SIZE == 0)
            temp_head += BLOCK_SIZE - WORD_SIZE;
    }
    gpm_persist();
    *(volatile size_t *)&head[tid] = temp_head;     // gpm_memcpy: store,
    gpm_persist();                                  // persist
    return i;
}

// gpmlog_clear_managed
static __device__ __forceinline__ void gpmlog_clear(size_t *head, int partition)
{
    int tid = partition;
    size_t h = (tid % WARP_SIZE) * WORD_SIZE;
    *(volatile size_t *)&head[tid] = h;             // gpm_memcpy_nodrain
    gpm_persist();
}

// gpmlog_get_size (managed, a partition of the first warp)
static __device__ __forceinline__ size_t gpmlog_get_size(size_t *head,
                                                         int partition)
{
    size_t h = head[partition];
    return h / BLOCK_SIZE * WORD_SIZE + h % WORD_SIZE;
}

// gpmlog_read_managed: the last `size` bytes of the partition, backwards
static __device__ __forceinline__ int gpmlog_read(char *start, size_t *head,
                                                  void *var, size_t size,
                                                  int partition)
{
    size_t h = head[partition];
    if (h / BLOCK_SIZE * WORD_SIZE + h % WORD_SIZE < size)
        size = h / BLOCK_SIZE * WORD_SIZE + h % WORD_SIZE;
    size_t i = h, j = size;
    for (; j > 0;) {
        if (i % WORD_SIZE == 0)         // move to previous segment
            i -= BLOCK_SIZE - WORD_SIZE;
        i -= WORD_SIZE;
        j -= WORD_SIZE;
        *(unsigned *)((char *)var + j) = *(volatile unsigned *)(start + i);
    }
    return size;
}

__global__ void logDummy(char *start, size_t *head, int pos)
{
    log_entry_t dummy;
    gpmlog_insert(start, head, &dummy, sizeof(log_entry_t), pos);
}

__global__ void hash_insert_2choice(bucket_t *hash_table, const ielem_t *in,
                                    char *start, size_t *head,
                                    int total_elem_num)
{
    int idx = threadIdx.x;
    int id = idx;                       // one element per thread
    int simd_lane = idx;                // the lane it lands in (the ballots)
    const ielem_t *elem = &(in[id]);
    sign_t sig = elem->sig;
    bool done = false;
    bucket_t *b = &(hash_table[0]);
    /* Check for same signatures in the bucket */
    if (b->sig[simd_lane] == elem->sig) {
        // Insert into log
        log_entry_t entry;
        entry.simd_lane = simd_lane;
        entry.sig = elem->sig;
        entry.loc = b->loc[simd_lane];
        gpmlog_insert(start, head, &entry, sizeof(log_entry_t),
                      1 + total_elem_num * blockIdx.x + id);
        // Perform operation
        b->loc[simd_lane] = elem->loc;
        done = true;
    }
    /* find the empty slot for insertion */
    log_entry_t entry;
    if (!done) {
        entry.sig = 0;
        if (b->sig[simd_lane] == 0)
            b->sig[simd_lane] = sig;
    }
    __syncthreads();
    if (!done) {
        if (b->sig[simd_lane] == sig) {
            entry.simd_lane = simd_lane;
            entry.loc = b->loc[simd_lane];
            gpmlog_insert(start, head, &entry, sizeof(log_entry_t),
                          1 + total_elem_num * blockIdx.x + id);
            b->loc[simd_lane] = elem->loc;
            done = true;
        }
    }
    gpm_persist();                      // gpm_drain()
}

// Fix (3): the empty-slot path logs the slot before it stores the signature.
__global__ void hash_insert_2choice_logfirst(bucket_t *hash_table,
                                             const ielem_t *in, char *start,
                                             size_t *head, int total_elem_num)
{
    int idx = threadIdx.x;
    int id = idx;
    int simd_lane = idx;
    const ielem_t *elem = &(in[id]);
    sign_t sig = elem->sig;
    bool done = false;
    bucket_t *b = &(hash_table[0]);
    if (b->sig[simd_lane] == elem->sig) {
        log_entry_t entry;
        entry.simd_lane = simd_lane;
        entry.sig = elem->sig;
        entry.loc = b->loc[simd_lane];
        gpmlog_insert(start, head, &entry, sizeof(log_entry_t),
                      1 + total_elem_num * blockIdx.x + id);
        b->loc[simd_lane] = elem->loc;
        done = true;
    }
    log_entry_t entry;
    if (!done) {
        entry.sig = 0;
        if (b->sig[simd_lane] == 0) {
            entry.simd_lane = simd_lane;        // the fix: log first
            entry.loc = b->loc[simd_lane];
            gpmlog_insert(start, head, &entry, sizeof(log_entry_t),
                          1 + total_elem_num * blockIdx.x + id);
            b->sig[simd_lane] = sig;
        }
    }
    __syncthreads();
    if (!done) {
        if (b->sig[simd_lane] == sig) {
            b->loc[simd_lane] = elem->loc;
            done = true;
        }
    }
    gpm_persist();
}

__global__ void invalidateLog(size_t *head, int pos)
{
    gpmlog_clear(head, pos);
}

__global__ void clearLogs(size_t *head, int size)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id < size)
        gpmlog_clear(head, id);
}

__global__ void checkLogValid(size_t *head, bool *valid)
{
    if (gpmlog_get_size(head, 0) > 0)
        *valid = true;
    else
        *valid = false;
}

__global__ void recoverFromLog(bucket_t *hash_table, char *start, size_t *head,
                               bool *valid, int partitions)
{
    if (*valid == false)
        return;
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id > partitions)
        return;
    if (gpmlog_get_size(head, id) < sizeof(log_entry_t))
        return;
    log_entry_t entry;
    gpmlog_read(start, head, &entry, sizeof(log_entry_t), id);
    bucket_t *b = &(hash_table[0]);
    b->sig[entry.simd_lane] = 0;
    b->loc[entry.simd_lane] = entry.loc;
    gpm_persist();                      // gpm_drain()
}

// Fix (1): partition 0 holds the batch flag's dummy record, not an undo record.
__global__ void recoverFromLog_skipdummy(bucket_t *hash_table, char *start,
                                         size_t *head, bool *valid,
                                         int partitions)
{
    if (*valid == false)
        return;
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id > partitions)
        return;
    if (id == 0)                        // the fix
        return;
    if (gpmlog_get_size(head, id) < sizeof(log_entry_t))
        return;
    log_entry_t entry;
    gpmlog_read(start, head, &entry, sizeof(log_entry_t), id);
    bucket_t *b = &(hash_table[0]);
    b->sig[entry.simd_lane] = 0;
    b->loc[entry.simd_lane] = entry.loc;
    gpm_persist();
}

// Fixes (1) and (2): also restore the logged signature.
__global__ void recoverFromLog_fix(bucket_t *hash_table, char *start,
                                   size_t *head, bool *valid, int partitions)
{
    if (*valid == false)
        return;
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id > partitions)
        return;
    if (id == 0)
        return;
    if (gpmlog_get_size(head, id) < sizeof(log_entry_t))
        return;
    log_entry_t entry;
    gpmlog_read(start, head, &entry, sizeof(log_entry_t), id);
    bucket_t *b = &(hash_table[0]);
    b->sig[entry.simd_lane] = entry.sig;    // the fix
    b->loc[entry.simd_lane] = entry.loc;
    gpm_persist();
}
