/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Paper 001, section 4.4 (buffer strategies, Table 6): a 9-tap filter over
 * rows of bytes, one work-item per row, each walking its own row (the
 * paper's "direct" scheme of section 4.5).  The taps are the binomial
 * 1 8 28 56 70 56 28 8 1 (sum 256), rounded; beyond the row's ends the
 * first and the last byte repeat (clamped indices).  The host computes
 * the same (ks-micro-filter.c). */

__kernel void
micro_filter (__global const uchar *in,
              __global uchar       *out,
              const uint            rows,
              const uint            width)
{
  const uint r = (uint) get_global_id (0);
  const int taps[9] = { 1, 8, 28, 56, 70, 56, 28, 8, 1 };
  __global const uchar *src;
  __global uchar *dst;

  if (r >= rows)
    return;
  src = in + (size_t) r * width;
  dst = out + (size_t) r * width;
  for (int j = 0; j < (int) width; j++)
    {
      int acc = 128;

      for (int k = -4; k <= 4; k++)
        {
          int jj = j + k;

          jj = jj < 0 ? 0 : jj >= (int) width ? (int) width - 1 : jj;
          acc += taps[k + 4] * src[jj];
        }
      dst[j] = (uchar) (acc >> 8);
    }
}
