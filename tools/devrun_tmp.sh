export LD_LIBRARY_PATH=/usr/local/cuda/lib64
K=target/dev/ksem
$K fuzz --dialect tilelang --backends interp,cuda --time 60s --seed 5 --out $OUT/tl_fuzz > $OUT/fuzz_tilelang.json 2> $OUT/fuzz_tilelang.err
$K corpus check corpus/tilelang --backends interp,cuda > $OUT/corpus_tilelang.txt 2>&1
$K corpus check corpus/cudapy --backends interp,cuda > $OUT/corpus_cudapy.txt 2>&1
$K corpus check corpus/triton --backends interp,cuda > $OUT/corpus_triton.txt 2>&1
echo finished
