/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_MICRO_EDGE=0 | -DKS_MICRO_EDGE=1 | -DKS_MICRO_EDGE=2 | -DKS_MICRO_EDGE=1 -DKS_TRACE */
/* Paper 001, section 4.5 (memory access pattern, Table 7): an image made
 * half as wide and half as high by a 9-tap filter, rows first, then
 * columns: each pass filters rows of `len` bytes at every second position
 * and writes its result transposed (out[j][r]), so the second pass reads
 * the columns as rows and the final image comes out the right way round.
 *
 * Two mappings of work-items onto the work:
 *   micro_downscale_direct   one work-item per row, walking it (the paper's
 *                            direct scheme: neighbouring items read bytes a
 *                            row apart);
 *   micro_downscale_grouped  one work-item per output byte, dimension 0
 *                            along the row (neighbouring items read
 *                            neighbouring bytes).
 * Three ways with the row's ends, where the taps reach past it (the first
 * and last byte repeat there), by -DKS_MICRO_EDGE:
 *   0  functions: a clamped function for the ends, a free one inside;
 *   1  padding: every row has 4 copies of its end bytes on each side
 *      (pad = 4 in the strides; the first pass writes them for the second);
 *   2  clamping: every index clamped.
 * All six compute the host's bytes exactly (ks-micro-downscale.c). */

#ifndef KS_MICRO_EDGE
#define KS_MICRO_EDGE 2
#endif

#include "ks-common.h"

/* The binomial 1 8 28 56 70 56 28 8 1 (sum 256) centred on c, rounded. */
KS_FN uchar
ks_tap_clamped (__global const uchar *row,
                int                   len,
                int                   c KS_TRACE_PARAM)
{
  const int taps[9] = { 1, 8, 28, 56, 70, 56, 28, 8, 1 };
  int acc = 128;

  for (int k = 0; k < 9; k++)
    {
      int i = c + k - 4;

      i = i < 0 ? 0 : i >= len ? len - 1 : i;
      acc += taps[k] * KS_LD (row, i);
    }
  return (uchar) (acc >> 8);
}

KS_FN uchar
ks_tap_free (__global const uchar *row,
             int                   c KS_TRACE_PARAM)
{
  const int taps[9] = { 1, 8, 28, 56, 70, 56, 28, 8, 1 };
  int acc = 128;

  for (int k = 0; k < 9; k++)
    acc += taps[k] * KS_LD (row, c + k - 4);
  return (uchar) (acc >> 8);
}

/* Output j of a row: its taps leave the row for the first 2 and the last
 * 2 outputs (c - 4 < 0 or c + 4 > len - 1 with c = 2j). */
KS_FN uchar
ks_downscale_one (__global const uchar *row,
                  int                   len,
                  int                   j KS_TRACE_PARAM)
{
#if KS_MICRO_EDGE == 1
  return ks_tap_free (row, 2 * j KS_TRACE_ARG);
#elif KS_MICRO_EDGE == 0
  return 2 * j - 4 < 0 || 2 * j + 4 > len - 1 ? ks_tap_clamped (row, len, 2 * j KS_TRACE_ARG)
                                              : ks_tap_free (row, 2 * j KS_TRACE_ARG);
#else
  return ks_tap_clamped (row, len, 2 * j KS_TRACE_ARG);
#endif
}

/* Writes output j of row r (transposed), and with padding the pad bytes
 * of the output row j where r is its first or last element. */
KS_FN void
ks_downscale_store (__global uchar *out,
                    int             rows,
                    int             out_stride,
                    int             out_pad,
                    int             j,
                    int             r,
                    uchar           v KS_TRACE_PARAM)
{
  __global uchar *dst = out + (size_t) j * out_stride + out_pad;

  KS_ST (dst, r, v);
  if (out_pad > 0 && r == 0)
    for (int p = 1; p <= out_pad; p++)
      KS_ST (dst, -p, v);
  if (out_pad > 0 && r == rows - 1)
    for (int p = 1; p <= out_pad; p++)
      KS_ST (dst, rows - 1 + p, v);
}

__kernel void
micro_downscale_direct (__global const uchar *in,
                        __global uchar       *out,
                        const int             rows,
                        const int             len,
                        const int             in_stride,
                        const int             in_pad,
                        const int             out_stride,
                        const int             out_pad KS_TRACE_PARAM)
{
  const int r = (int) get_global_id (0);
  __global const uchar *row;

  KS_TRACE_BASE (0, in);
  KS_TRACE_BASE (1, out);
  if (r >= rows)
    return;
  row = in + (size_t) r * in_stride + in_pad;
#if KS_MICRO_EDGE == 0
  /* The paper's scheme: the ends by their own function, the inside free. */
  for (int j = 0; j < 2; j++)
    ks_downscale_store (out, rows, out_stride, out_pad, j, r,
                        ks_tap_clamped (row, len, 2 * j KS_TRACE_ARG) KS_TRACE_ARG);
  for (int j = 2; j < len / 2 - 2; j++)
    ks_downscale_store (out, rows, out_stride, out_pad, j, r, ks_tap_free (row, 2 * j KS_TRACE_ARG) KS_TRACE_ARG);
  for (int j = len / 2 - 2; j < len / 2; j++)
    ks_downscale_store (out, rows, out_stride, out_pad, j, r,
                        ks_tap_clamped (row, len, 2 * j KS_TRACE_ARG) KS_TRACE_ARG);
#else
  for (int j = 0; j < len / 2; j++)
    ks_downscale_store (out, rows, out_stride, out_pad, j, r,
                        ks_downscale_one (row, len, j KS_TRACE_ARG) KS_TRACE_ARG);
#endif
}

__kernel void
micro_downscale_grouped (__global const uchar *in,
                         __global uchar       *out,
                         const int             rows,
                         const int             len,
                         const int             in_stride,
                         const int             in_pad,
                         const int             out_stride,
                         const int             out_pad KS_TRACE_PARAM)
{
  const int j = (int) get_global_id (0);
  const int r = (int) get_global_id (1);

  KS_TRACE_BASE (0, in);
  KS_TRACE_BASE (1, out);
  if (j >= len / 2 || r >= rows)
    return;
  ks_downscale_store (out, rows, out_stride, out_pad, j, r,
                      ks_downscale_one (in + (size_t) r * in_stride + in_pad, len, j KS_TRACE_ARG) KS_TRACE_ARG);
}
