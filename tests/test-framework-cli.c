/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli with the test experiment registered: test-cli.sh drives
 * it to show that a description alone gives the CLI its options, --help,
 * files and figure, with no line of src/cli about it. */
#include "ks-cli.h"
#include "ks-exp-test.h"

int
main (int    argc,
      char **argv)
{
  ks_exp_test_register ();
  return ks_cli_main (argc, argv);
}
