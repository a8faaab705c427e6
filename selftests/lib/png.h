/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a PNG as headless Chromium's --screenshot writes it, for tests
 * that check what a page drew: 8 bits per channel, RGB or RGBA, not
 * interlaced.  The IDAT chunks are one zlib stream (inflated with zlib,
 * link -lz); each row starts with its filter byte (PNG spec, section 9).
 * Anything else is refused with a reason, never read out of bounds.
 */
#ifndef GPUPROF_TEST_PNG_H
#define GPUPROF_TEST_PNG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct png_image {
	uint32_t width, height;
	uint8_t *rgb;		/* width * height * 3 */
};

static inline uint32_t png_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint8_t png_paeth(uint8_t a, uint8_t b, uint8_t c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	if (pa <= pb && pa <= pc)
		return a;
	return pb <= pc ? b : c;
}

/* Undo the filters of @rows rows of @stride bytes (+1 filter byte each). */
static inline int png_unfilter(uint8_t *data, uint32_t rows, size_t stride,
			       unsigned int bpp)
{
	uint8_t *prev = NULL;
	uint32_t y;
	size_t x;

	for (y = 0; y < rows; y++) {
		uint8_t *row = data + y * (stride + 1), type = row[0];
		uint8_t *cur = row + 1;

		for (x = 0; x < stride; x++) {
			uint8_t a = x >= bpp ? cur[x - bpp] : 0;
			uint8_t b = prev ? prev[x] : 0;
			uint8_t c = prev && x >= bpp ? prev[x - bpp] : 0;

			switch (type) {
			case 0:
				break;
			case 1:
				cur[x] += a;
				break;
			case 2:
				cur[x] += b;
				break;
			case 3:
				cur[x] += (a + b) / 2;
				break;
			case 4:
				cur[x] += png_paeth(a, b, c);
				break;
			default:
				return -1;
			}
		}
		prev = cur;
	}
	return 0;
}

/* Read @path into @img: 0, or -1 with the reason in @err. */
static inline int png_read(const char *path, struct png_image *img,
			   char *err, size_t err_size)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	uint8_t *file = NULL, *idat = NULL, *raw = NULL;
	size_t len = 0, pos, idat_len = 0, stride = 0;
	unsigned int bpp = 0;
	uLongf raw_len;
	uint32_t x, y;
	long flen;
	FILE *f;
	int ret = -1;

	memset(img, 0, sizeof(*img));
	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, err_size, "cannot open %s", path);
		return -1;
	}
	if (!fseek(f, 0, SEEK_END) && (flen = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		file = malloc(flen);
		if (file && fread(file, 1, flen, f) == (size_t)flen)
			len = flen;
	}
	fclose(f);
	if (len < 8 + 25 || memcmp(file, sig, 8)) {
		snprintf(err, err_size, "%s: not a PNG", path);
		goto out;
	}
	idat = malloc(len);
	if (!idat)
		goto out;
	for (pos = 8; pos + 12 <= len;) {
		uint32_t n = png_be32(file + pos);
		const uint8_t *type = file + pos + 4, *data = file + pos + 8;

		if (n > len - pos - 12) {
			snprintf(err, err_size, "%s: chunk at %zu overruns the file", path, pos);
			goto out;
		}
		if (png_be32(data + n) != crc32(0, type, n + 4)) {
			snprintf(err, err_size, "%s: bad CRC at %zu", path, pos);
			goto out;
		}
		if (!memcmp(type, "IHDR", 4) && n == 13) {
			img->width = png_be32(data);
			img->height = png_be32(data + 4);
			/* depth 8; colour type 2 (RGB) or 6 (RGBA); no interlace */
			if (data[8] != 8 || (data[9] != 2 && data[9] != 6) ||
			    data[10] || data[11] || data[12] ||
			    !img->width || !img->height ||
			    img->width > 16384 || img->height > 16384) {
				snprintf(err, err_size, "%s: unsupported IHDR", path);
				goto out;
			}
			bpp = data[9] == 6 ? 4 : 3;
			stride = (size_t)img->width * bpp;
		} else if (!memcmp(type, "IDAT", 4)) {
			memcpy(idat + idat_len, data, n);
			idat_len += n;
		} else if (!memcmp(type, "IEND", 4)) {
			break;
		}
		pos += 12 + n;
	}
	if (!bpp) {
		snprintf(err, err_size, "%s: no IHDR", path);
		goto out;
	}
	raw_len = (uLongf)(stride + 1) * img->height;
	raw = malloc(raw_len);
	if (!raw || uncompress(raw, &raw_len, idat, idat_len) != Z_OK ||
	    raw_len != (stride + 1) * img->height ||
	    png_unfilter(raw, img->height, stride, bpp)) {
		snprintf(err, err_size, "%s: bad image data", path);
		goto out;
	}
	img->rgb = malloc((size_t)img->width * img->height * 3);
	if (!img->rgb)
		goto out;
	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width; x++)
			memcpy(img->rgb + ((size_t)y * img->width + x) * 3,
			       raw + y * (stride + 1) + 1 + (size_t)x * bpp, 3);
	ret = 0;
out:
	free(file);
	free(idat);
	free(raw);
	return ret;
}

static inline void png_free(struct png_image *img)
{
	free(img->rgb);
	img->rgb = NULL;
}

/* The pixel at (@x, @y) as 0xRRGGBB; 0xffffffff outside the image. */
static inline uint32_t png_pixel(const struct png_image *img, int x, int y)
{
	const uint8_t *p;

	if (x < 0 || y < 0 || (uint32_t)x >= img->width || (uint32_t)y >= img->height)
		return 0xffffffffu;
	p = img->rgb + ((size_t)y * img->width + x) * 3;
	return (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
}

#endif
