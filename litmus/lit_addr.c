/* lit_addr: generic addresses of locations, and the element an address
   names (DESIGN section 7: an access of width w must fall on one element
   of width w of one location, aligned). */
#include "litmus/litmus_int.h"

static const int64_t window[3] = {
    [LIT_PM] = LIT_WINDOW_PM, [LIT_DRAM] = LIT_WINDOW_DRAM,
    [LIT_SHARED] = LIT_WINDOW_SHARED,
};

int64_t lit_loc_address(const LitProgram *p, int32_t loc)
{
    const LitLoc *l = &p->locs[loc];
    return window[l->space] + l->byte;
}

int lit_addr_resolve(const LitProgram *p, int aspace, int64_t addr,
                     int bytes, int32_t *loc, int64_t *index)
{
    int space;
    int64_t off;
    if (aspace == LIT_AS_SHARED && addr >= 0 && addr < LIT_WINDOW_SIZE)
        addr += LIT_WINDOW_SHARED;
    if (addr < LIT_WINDOW_PM || addr >= LIT_WINDOW_SHARED + LIT_WINDOW_SIZE)
        return -1;
    space = (int)(addr / LIT_WINDOW_SIZE) - 1;
    off = addr - window[space];
    /* the last location starting at or before off */
    int32_t lo = 0, hi = p->nspace[space] - 1, at = -1;
    const int32_t *idx = p->space_locs[space];
    while (lo <= hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (p->locs[idx[mid]].byte <= off) {
            at = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (at < 0)
        return -1;
    const LitLoc *l = &p->locs[idx[at]];
    int64_t rel = off - l->byte;
    if (rel / l->elem >= l->size ||
        (bytes > 0 && (l->elem != bytes || rel % l->elem)))
        return -1;
    *loc = idx[at];
    *index = rel / l->elem;
    return 0;
}
