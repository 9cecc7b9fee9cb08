/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A trivial kernel, built once per device at start-up to ask the driver for
 * CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (a kernel property, not a
 * device one) before any experiment has built its own program. */
__kernel void
ks_probe (__global float *out)
{
  size_t i = get_global_id (0);
  out[i] = (float) i * 2.0f;
}
