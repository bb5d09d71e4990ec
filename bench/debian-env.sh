# Debian's own numpy and R on a machine that has neither (the GPU host), without root: source it with a folder of
# Debian 12 packages, fetched where apt works with
#   apt-get download python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3-numpy \
#     libopenblas0-pthread libgfortran5 libquadmath0 libffi8 libexpat1 \
#     r-base-core libicu72 libreadline8 libtirpc3 libgomp1 libpcre2-8-0 libcurl4 libdeflate0
#   . bench/debian-env.sh DIR
# It unpacks them into /tmp/deb once and sets DEBPY (python3.11), DEBR (R) and DEBENV, an `env` prefix that runs
# either on Debian's OpenBLAS (openblas-pthread): $DEBENV $DEBPY bench/np64.py 8192.
D=/tmp/deb
if [ ! -x $D/usr/bin/python3.11 ]; then
  rm -rf $D && mkdir -p $D
  for d in "$1"/*.deb; do dpkg -x "$d" $D; done
  # R's etc/ links into /etc/R: point them at the unpacked copies, and R_HOME at the unpacked tree
  for f in $D/usr/lib/R/etc/*; do [ -L "$f" ] && ln -sf "$D/etc/R/$(basename "$f")" "$f"; done
  [ -e $D/etc/R/Renviron ] || cp $D/usr/lib/R/etc/Renviron.ucf $D/etc/R/Renviron
  sed -i "s|^R_HOME_DIR=/usr/lib/R|R_HOME_DIR=$D/usr/lib/R|; s|=/usr/share/R/|=$D/usr/share/R/|" $D/usr/lib/R/bin/R
  sed -i 's|^\(\s*\)if test -n "\${R_HOME}"|\1if false|' $D/usr/lib/R/bin/R
fi
L=$D/usr/lib/x86_64-linux-gnu
P=$L/openblas-pthread:$L:$D/lib/x86_64-linux-gnu
DEBENV="env -u PYTHONPATH -u PYTHONHOME PYTHONNOUSERSITE=1 R_LD_LIBRARY_PATH=$D/usr/lib/R/lib:$P LD_LIBRARY_PATH=$P:$D/usr/lib/R/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
DEBPY=$D/usr/bin/python3.11
DEBR=$D/usr/lib/R/bin/R
