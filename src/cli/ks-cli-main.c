/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli's entry point; everything else is in the kscli library,
 * which test programs link with experiments of their own registered. */
#include "ks-cli.h"

int
main (int    argc,
      char **argv)
{
  return ks_cli_main (argc, argv);
}
