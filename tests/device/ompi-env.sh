# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced on the GPU machine: unpacks the tarball tests/device/pack-openmpi.sh
# made (argument 1, default .devcarry/ompi.tar.xz) to /tmp/ompi and puts its
# Open MPI on PATH and LD_LIBRARY_PATH, relocated by OPAL_PREFIX/PMIX_PREFIX.
_ks_ompi_tar=${1:-.devcarry/ompi.tar.xz}
rm -rf /tmp/ompi && tar -C /tmp -xJf "$_ks_ompi_tar"
export OPAL_PREFIX=/tmp/ompi/usr
export PMIX_PREFIX=/tmp/ompi/usr/lib/x86_64-linux-gnu/pmix2
export PATH=/tmp/ompi/usr/bin:$PATH
export LD_LIBRARY_PATH=/tmp/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:/tmp/ompi/usr/lib/x86_64-linux-gnu:/tmp/ompi/usr/lib/x86_64-linux-gnu/pmix2/lib:/tmp/ompi/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The device tool's commands run as root; mpirun refuses root unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Shared memory and self between the ranks of one host; no InfiniBand probing.
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
# The GPU machine has a PMIx of its own at the path Debian compiled in; its
# zlib plugin does not load into ours (harmless): say nothing of it.
export PMIX_MCA_pcompress_base_silence_warning=1 PMIX_MCA_mca_base_component_show_load_errors=0
unset _ks_ompi_tar
