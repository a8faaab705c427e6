/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every fuzz target of selftests/fuzz/ shares.  Each target is one
 * file defining LLVMFuzzerTestOneInput(); it is linked with libFuzzer
 * (make fuzz) or with replay.c (the replay test of make check), so it
 * uses nothing of either.  A broken invariant is a crash on purpose:
 * FUZZ_CHECK() names the check and aborts, and both drivers report the
 * input that did it.
 */
#ifndef GPUPROF_FUZZ_H
#define GPUPROF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant broken: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/*
 * Piece sizes for feeding an input in parts, drawn from @seed: from 1 to
 * 2^(seed & 15) bytes, so one seed byte chooses between byte-at-a-time
 * and pieces bigger than any record, and the split points in between.
 */
struct fuzz_pieces {
	uint32_t state;
	uint32_t max;
};

static inline void fuzz_pieces_init(struct fuzz_pieces *fp, uint8_t seed)
{
	fp->state = 0x9e3779b9u ^ seed;
	fp->max = 1u << (seed & 15);
}

static inline size_t fuzz_piece(struct fuzz_pieces *fp, size_t left)
{
	size_t n;

	/* xorshift32: cheap and the same on every run of an input. */
	fp->state ^= fp->state << 13;
	fp->state ^= fp->state >> 17;
	fp->state ^= fp->state << 5;
	n = 1 + fp->state % fp->max;
	return n < left ? n : left;
}

#endif
