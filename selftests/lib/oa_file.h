/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An OA recording (the record stream of Documentation/oa.rst) read from
 * a file by the parser the module itself uses (module/oa_decode.c), so a
 * test checks a file exactly as /dev/gpuprof/oa would take it.
 */
#ifndef GPUPROF_TEST_OA_FILE_H
#define GPUPROF_TEST_OA_FILE_H

#include <stdio.h>

#include "../../module/oa_decode.h"

/*
 * Feed the file at @path into @s (initialised here, its record buffer
 * @buf of GPUPROF_OA_RECORD_MAX bytes), @fn called for each record.
 * Return: 0; -1 when the file cannot be opened or the stream is bad
 * (s->error says why; the records before the bad one were taken).
 */
static inline int oa_file_parse(const char *path, struct gpuprof_oa_stream *s,
				__u8 *buf, gpuprof_oa_record_fn fn, void *arg)
{
	__u8 chunk[4096];
	size_t k;
	FILE *f;

	gpuprof_oa_stream_init(s, buf);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	while ((k = fread(chunk, 1, sizeof(chunk), f)))
		if (gpuprof_oa_stream_feed(s, chunk, k, fn, arg))
			break;
	fclose(f);
	return gpuprof_oa_stream_end(s);
}

#endif
