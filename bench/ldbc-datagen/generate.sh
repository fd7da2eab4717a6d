#!/usr/bin/env bash
# Generate an LDBC SNB Interactive data set with LDBC's own Hadoop data generator
# (ldbc/ldbc_snb_datagen_hadoop, commit b9840a6 = v1.0.0 generator code), Hadoop in local mode.
#
# usage: generate.sh SCALE_FACTOR OUT_DIR        e.g. generate.sh 1 /work/ldbc-sf1
#
# Output layout (same as our SF0.1 set):
#   OUT_DIR/social_network/{static,dynamic}/*_0_0.csv   CsvComposite, LongDateFormatter, '|'
#   OUT_DIR/update_streams/updateStream_0_0_{person,forum}.csv + updateStream.properties
#   OUT_DIR/substitution_parameters/interactive_{1..14}_param.txt (+ the rest paramgen writes)
#   OUT_DIR/params.ini, OUT_DIR/README-NOT-OFFICIAL.txt
#
# Environment (all optional):
#   DATAGEN_GIT   git URL or bare dir of ldbc_snb_datagen_hadoop
#                 (default: the search tool's mirror, else https://github.com/ldbc/ldbc_snb_datagen_hadoop)
#   DATAGEN_REV   commit to build (default b9840a6)
#   DATAGEN_SRC   work tree to clone into / build in (default /work/datagen-src)
#   WORK_DIR      where the generator runs, hadoop temp files land (default /work/datagen-run-sf$SF)
#   PYTHON2       Python 2 interpreter for paramgen (default /root/.pyenv/versions/2.7.18/bin/python2)
#   JAVA_HEAP     JVM heap (default 8g)
#   NUM_THREADS   datagen reducer count (default 1: keeps the *_0_0.csv file names)
set -euo pipefail

SF=${1:?usage: generate.sh SCALE_FACTOR OUT_DIR}
OUT=${2:?usage: generate.sh SCALE_FACTOR OUT_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
DATAGEN_SRC=${DATAGEN_SRC:-/work/datagen-src}
DATAGEN_REV=${DATAGEN_REV:-b9840a6}
WORK_DIR=${WORK_DIR:-/work/datagen-run-sf$SF}
PYTHON2=${PYTHON2:-/root/.pyenv/versions/2.7.18/bin/python2}
JAVA_HEAP=${JAVA_HEAP:-8g}
NUM_THREADS=${NUM_THREADS:-1}
if [ -z "${DATAGEN_GIT:-}" ]; then
  if [ -d /work/.mirror/ldbc+ldbc_snb_datagen_hadoop/repo ]; then
    DATAGEN_GIT=/work/.mirror/ldbc+ldbc_snb_datagen_hadoop/repo
  else
    DATAGEN_GIT=https://github.com/ldbc/ldbc_snb_datagen_hadoop
  fi
fi
log() { echo "[generate.sh $(date -u +%H:%M:%S)] $*"; }

# ---- 1. source ------------------------------------------------------------------------------
DICT=src/main/resources/dictionaries
if [ ! -d "$DATAGEN_SRC/.git" ]; then
  log "cloning $DATAGEN_GIT -> $DATAGEN_SRC"
  git clone -q --no-checkout "$DATAGEN_GIT" "$DATAGEN_SRC"
fi
cd "$DATAGEN_SRC"
# Check out everything but the two LFS-tracked dictionaries, whose blobs the snapshot lacks.
git checkout -q "$DATAGEN_REV" -- . ":!$DICT/tagMatrix.txt" ":!$DICT/tagText.txt"
standin=0
git checkout -q "$DATAGEN_REV" -- "$DICT/tagMatrix.txt" "$DICT/tagText.txt" 2>/dev/null || standin=1

# ---- 2. stand-ins for missing dictionaries --------------------------------------------------
for f in tagMatrix.txt tagText.txt; do
  if [ ! -s "$DICT/$f" ] || head -c 100 "$DICT/$f" | grep -q 'git-lfs'; then standin=1; fi
done
if [ "$standin" = 1 ]; then
  log "tagMatrix.txt/tagText.txt not in the snapshot (or LFS pointers): writing stand-ins (make_standins.py)"
  python3 "$HERE/make_standins.py" "$DICT"
fi
sha256sum "$DICT/tagMatrix.txt" "$DICT/tagText.txt"

# ---- 3. build -------------------------------------------------------------------------------
# ssj 2.5 depends on dsol:dsol-xml, served only by a third-party Maven repository that is not
# reachable; the generator never uses it, so exclude it.
python3 - <<'EOF'
p = 'pom.xml'; s = open(p).read()
old = "      <artifactId>ssj</artifactId>\n      <version>2.5</version>\n"
if 'dsol-xml' not in s:
    assert old in s
    s = s.replace(old, old + "      <exclusions>\n        <exclusion>\n          <groupId>dsol</groupId>\n"
                  "          <artifactId>dsol-xml</artifactId>\n        </exclusion>\n      </exclusions>\n")
    open(p, 'w').write(s)
EOF
log "building datagen jar"
mvn -q -DskipTests clean assembly:assembly
JAR=$DATAGEN_SRC/target/ldbc_snb_datagen-1.0.0-jar-with-dependencies.jar

# ---- 4. run ---------------------------------------------------------------------------------
rm -rf "$WORK_DIR"; mkdir -p "$WORK_DIR"
cp -r "$DATAGEN_SRC/paramgenerator" "$WORK_DIR/"
cd "$WORK_DIR"
cat > params.ini <<EOF
ldbc.snb.datagen.generator.scaleFactor:snb.interactive.$SF
ldbc.snb.datagen.serializer.dateFormatter:ldbc.snb.datagen.util.formatter.LongDateFormatter
ldbc.snb.datagen.serializer.dynamicActivitySerializer:ldbc.snb.datagen.serializer.snb.csv.dynamicserializer.activity.CsvCompositeDynamicActivitySerializer
ldbc.snb.datagen.serializer.dynamicPersonSerializer:ldbc.snb.datagen.serializer.snb.csv.dynamicserializer.person.CsvCompositeDynamicPersonSerializer
ldbc.snb.datagen.serializer.staticSerializer:ldbc.snb.datagen.serializer.snb.csv.staticserializer.CsvCompositeStaticSerializer
ldbc.snb.datagen.serializer.numUpdatePartitions:1
ldbc.snb.datagen.generator.numThreads:$NUM_THREADS
ldbc.snb.datagen.parametergenerator.parameters:true
ldbc.snb.datagen.parametergenerator.python:$PYTHON2
EOF
# The jar-with-dependencies keeps only one META-INF/services/...ClientProtocolProvider (YARN's), so
# Hadoop's local job runner is not found ("Cannot initialize Cluster"): put the local providers
# back on the class path from a small directory.
mkdir -p extra-cp/META-INF/services
echo org.apache.hadoop.mapred.LocalClientProtocolProvider > extra-cp/META-INF/services/org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider
echo org.apache.hadoop.fs.LocalFileSystem > extra-cp/META-INF/services/org.apache.hadoop.fs.FileSystem
log "running datagen SF$SF in $WORK_DIR (heap $JAVA_HEAP)"
start=$(date +%s)
java -Xmx$JAVA_HEAP -Xms1g \
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
  -Dmapreduce.framework.name=local -cp "$JAR:$WORK_DIR/extra-cp" ldbc.snb.datagen.LdbcDatagen params.ini 2>&1 | tee datagen.log
[ "${PIPESTATUS[0]}" = 0 ] || { log "datagen failed"; exit 1; }
grep -q 'Finished Parameter Generation' datagen.log || { log "paramgen did not finish (see parameters_interactive.log)"; exit 1; }
end=$(date +%s)
log "datagen + paramgen took $((end - start)) s"

# ---- 5. lay out -----------------------------------------------------------------------------
rm -rf "$OUT"; mkdir -p "$OUT/social_network/static" "$OUT/social_network/dynamic" "$OUT/update_streams" "$OUT/substitution_parameters"
SN=$WORK_DIR/social_network
# The CsvComposite serializers already write social_network/{static,dynamic}/; the update streams
# land in social_network/ itself. Hadoop's .crc side files are left behind.
for d in static dynamic; do
  find "$SN/$d" -maxdepth 1 -type f -name '*.csv' ! -name '.*' -exec mv -t "$OUT/social_network/$d/" {} +
done
mv "$SN"/updateStream_0_0_person.csv "$SN"/updateStream_0_0_forum.csv "$SN"/updateStream.properties "$OUT/update_streams/"
cp "$WORK_DIR"/substitution_parameters/* "$OUT/substitution_parameters/"
cp params.ini "$OUT/"
left=$(find "$SN" -type f ! -name '.*.crc' | wc -l)
[ "$left" = 0 ] || { log "unexpected files left in $SN:"; find "$SN" -type f ! -name '.*.crc'; exit 1; }
cat > "$OUT/README-NOT-OFFICIAL.txt" <<EOF
NOT THE OFFICIAL LDBC SNB DATA SET.
Generated by kith's bench/ldbc-datagen/generate.sh with ldbc/ldbc_snb_datagen_hadoop $DATAGEN_REV
(= v1.0.0 generator code), SF$SF, CsvComposite serializers + LongDateFormatter, numUpdatePartitions=1,
paramgen with $("$PYTHON2" --version 2>&1).
$( [ "$standin" = 1 ] && echo "STAND-IN dictionaries: src/main/resources/dictionaries/tagMatrix.txt and tagText.txt (git LFS
blobs absent from the snapshot) were replaced by make_standins.py output; person interests, parts of the
knows graph, forums, messages, likes, texts, update streams and parameters differ from the official set." )
EOF
log "done: $OUT"
