#!/usr/bin/env bash
# Runs the GPU tests, a sanitizer pass and a small speed sweep on a GPU machine, from a folder
# of prebuilt binaries (default build-gpu-run: tests/gpu/test_gpu_*, permbb-gpu-check,
# permbb-cpu-check). Logs go to $OUT (default ./device-out). Each step has a time limit, so a
# hang costs that step only.
#   tools/device_checks.sh [BIN_DIR] [tests|problems|sanitize|sweep|bench|large|contention|pools|
#                                    divergence|records|pcmax|pcmax-large|knapsack-threshold|
#                                    lb2-screen|lb2-profile|bound-choice|
#                                    bound-choice-long|scale|teams|compare|occupancy|
#                                    lb2-shared|lb2-shared-sanitize|lb2-large|lb2-placements]...
# The steps teams, sanitize (SANITIZE_WIDTHS, default 32 16 8) and occupancy run teams of 16 and 8
# lanes: build with -DPERMBB_GPU_TEAMS=ON for them (or SANITIZE_WIDTHS=32).
# BASELINE_BIN (optional): an older permbb whose GPU runs the pcmax steps put beside;
# BASELINE_CHECK: an older permbb-gpu-check for the lb2 and occupancy steps; compare needs
# BASELINE_BIN (bench/gpu.py --baseline-bin).
# The flag lists below ($flags, $args) are split into words on purpose.
# shellcheck disable=SC2086
set -u
BIN=${1:-build-gpu-run}
shift || true
STEPS=${*:-tests sanitize sweep}
OUT=${OUT:-device-out}
mkdir -p "$OUT"
# Shared libraries the GPU machine may lack (libgmpxx) travel in $BIN/lib.
export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi -L | tee "$OUT/device.txt"

for step in $STEPS; do
  case $step in
    tests)
      for t in test_gpu_host_logic test_gpu_kernels test_gpu_engine; do
        timeout 200 "$BIN/tests/gpu/$t" 2>&1 | tail -40 | tee -a "$OUT/tests.log"
      done ;;
    problems)
      # Knapsack and P||Cmax on the device, each against its host reference.
      for t in test_knapsack_gpu test_pcmax_gpu; do
        timeout 200 "$BIN/tests/gpu/$t" 2>&1 | tail -40 | tee -a "$OUT/problems.log"
      done
      timeout 120 compute-sanitizer --tool memcheck "$BIN/tests/gpu/test_pcmax_gpu" \
        --gtest_filter='*DeviceLevelBuckets*:*OneFiller*' 2>&1 | tail -8 | tee -a "$OUT/problems.log" ;;
    pcmax|pcmax-large)
      # bench/pcmax.py: CPU (all cores) against GPU per table and per bisection, and the default
      # engine's choice; tables up to 4 x 10^6 entries (pcmax) or 10^7 to 1.4 x 10^9 (pcmax-large).
      set_name=quick; [ "$step" = pcmax-large ] && set_name=large
      timeout 590 python3 bench/pcmax.py --bin "$BIN/permbb" --set $set_name --timeout 300 \
        ${BASELINE_BIN:+--baseline-bin "$BASELINE_BIN"} --out "$OUT/$step.md" \
        --json "$OUT/$step.json" 2>&1 | tail -45 ;;
    knapsack-threshold)
      # bench/knapsack.py --sweep-threshold: the CPU/GPU switch threshold, on the hard classes
      # as solved by default (dominance on) and on the paper's class without dominance, whose
      # lists grow long.
      timeout 290 python3 bench/knapsack.py --bin "$BIN/permbb" --sweep-threshold \
        --sweep-instances "strongly-correlated,500,1000,1;inverse-strongly-correlated,500,1000,1;subset-sum,500,1000,1" \
        --markdown "$OUT/knapsack_threshold.md" --json "$OUT/knapsack_threshold.json" 2>&1 | tail -14
      timeout 290 python3 bench/knapsack.py --bin "$BIN/permbb" --sweep-threshold --without dominance \
        --sweep-instances "strongly-correlated,300,100,2;strongly-correlated,300,1000,1" \
        --markdown "$OUT/knapsack_threshold_nodom.md" --json "$OUT/knapsack_threshold_nodom.json" \
        --time-limit 60 2>&1 | tail -14 ;;
    sanitize)
      # Each team width (docs/gpu.md, "Teams"): their collectives name only their lanes.
      for width in ${SANITIZE_WIDTHS:-32 16 8}; do
        timeout 60 compute-sanitizer --tool memcheck "$BIN/permbb-gpu-check" ta021 --ub opt \
          --ivms 256 --steps 32 --budget 2 --team-width $width 2>&1 | tail -15 | tee -a "$OUT/sanitize.log"
        timeout 60 compute-sanitizer --tool racecheck "$BIN/permbb-gpu-check" ta021 --ub opt \
          --ivms 64 --steps 8 --budget 2 --team-width $width 2>&1 | tail -15 | tee -a "$OUT/sanitize.log"
        timeout 60 compute-sanitizer --tool synccheck "$BIN/permbb-gpu-check" ta021 --ub opt \
          --ivms 64 --steps 8 --budget 2 --team-width $width 2>&1 | tail -15 | tee -a "$OUT/sanitize.log"
      done ;;
    sweep)
      # ta021 at --ub opt: 447,987,894 decomposed nodes on the CPU (LB1, MinMin).
      for flags in "" "--steps 128" "--ivms 8448" "--ivms 33792" "--trigger 0.5" \
                   "--trigger 0.95" "--placement 3"; do
        timeout 60 "$BIN/permbb-gpu-check" ta021 --ub opt --budget 40 $flags 2>&1 \
          | tee -a "$OUT/sweep.jsonl"
      done ;;
    large)
      # From no bound (the device incumbent protocol), and 2022 Table 1's larger instances at
      # its initial bounds (rates over a fixed time; int16 cells at n = 200).
      for args in "ta021 --ub inf --budget 30" "ta022 --ub inf --budget 30" \
                  "ta056 --ub 3666 --budget 30" "ta081 --ub 6115 --budget 20" \
                  "ta101 --ub 11156 --budget 20"; do
        timeout 60 "$BIN/permbb-gpu-check" $args 2>&1 | tee -a "$OUT/large.jsonl"
      done ;;
    contention)
      # bench/gpu_contention.py: every process layout, heuristic threads on and off.
      timeout 590 python3 bench/gpu_contention.py --bin "$BIN/permbb" --seconds 8 --repeat 5 \
        --json "$OUT/contention.json" 2>&1 | tee -a "$OUT/contention.md" ;;
    pools)
      # bench/gpu_pools.py: one process with 1..4 IVM pools side by side on the GPU.
      timeout 590 python3 bench/gpu_pools.py --check "$BIN/permbb-gpu-check" --seconds 12 \
        --json "$OUT/pools.json" 2>&1 | tee -a "$OUT/pools.md"
      # The CLI with two pools, alone and as a cluster worker: ta021 at its optimum has
      # 447,987,894 decomposed nodes (LB1, MinMin) however the work is shared.
      for launcher in "" "mpirun --oversubscribe -np 2"; do
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 $launcher \
          "$BIN/permbb" solve ta021 --ub opt --gpu --gpu-pools 2 --heuristic-threads 0 \
          --quiet --json - 2>&1 | tr -d '\n' | tee -a "$OUT/pools_cli.jsonl"
        echo | tee -a "$OUT/pools_cli.jsonl"
      done ;;
    divergence)
      # Branch efficiency (uniform branch targets) and warp execution efficiency (threads per
      # executed instruction, of 32) of the exploration kernel: LB1, and LB2 with the remapped
      # and the static lane mapping (2016 §4.1), three launches each after the start.
      for flags in "--bound lb1" "--bound lb2" "--bound lb2 --static-map"; do
        echo "# ta021 --ub opt $flags" >>"$OUT/divergence.csv"
        timeout 240 ncu --kernel-name regex:explore_kernel --launch-skip 20 --launch-count 3 \
          --metrics sm__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__thread_inst_executed_pred_on_per_inst_executed.ratio \
          --csv "$BIN/permbb-gpu-check" ta021 --ub opt $flags --budget 20 2>&1 \
          | grep -v "^==PROF==" | tee -a "$OUT/divergence.csv"
      done ;;
    records)
      # bench/records.py: the 2022 records through the cluster on this host's GPUs. A row left
      # unfinished continues from its checkpoint at the next call (RECORDS_DIR, kept on a warm
      # machine; its files also go to $OUT).
      records=${RECORDS_DIR:-$BIN/records-runs}
      timeout 590 python3 bench/records.py --bin "$BIN/permbb" --run-dir "$records" \
        --budget "${RECORDS_BUDGET:-540}" --json "$OUT/records.json" 2>&1 | tee -a "$OUT/records.md"
      tar czf "$OUT/records-runs.tgz" -C "$(dirname "$records")" "$(basename "$records")" ;;
    lb2-screen)
      # The two-phase LB2 (warp_lb2.cuh, bound_items_lb2) under the sanitizers, then
      # bench/gpu_lb2.py: the LB2 kinds by default (two phases) and one lane per child,
      # ta021-ta030 at the optimum (node counts must agree per bound), beside BASELINE_CHECK
      # when given. LB2_CONFIGS overrides the configurations.
      for check in "memcheck --bound lb2" "racecheck --bound lb2" "synccheck --bound lb2" \
                   "memcheck --bound lb1+lb2"; do
        read -r tool flags <<<"$check"
        echo "# $tool $flags --lb2-screen 2" >>"$OUT/lb2-sanitize.log"
        # racecheck may take 50 s of kernel time for the 2 s budget: a shorter limit loses
        # its summary.
        timeout 150 compute-sanitizer --tool "$tool" "$BIN/permbb-gpu-check" ta021 --ub opt \
          --ivms 64 --steps 8 --budget 2 $flags --lb2-screen 2 2>&1 | tail -4 \
          | tee -a "$OUT/lb2-sanitize.log"
      done
      timeout 590 python3 bench/gpu_lb2.py --bin "$BIN/permbb-gpu-check" --budget 40 \
        ${BASELINE_CHECK:+--baseline-bin "$BASELINE_CHECK"} \
        --configs "${LB2_CONFIGS:-lb1,lb2,lb2@lb2-screen=-1,lb1+lb2,lb1+lb2@lb2-screen=-1}" \
        --json "$OUT/lb2-screen.json" 2>&1 | tee -a "$OUT/lb2-screen.md" ;;
    lb2-profile)
      # Where the LB2 kernel's time goes: ncu's throughput, occupancy, instruction mix and warp
      # stall sections for one launch, ta021 at the optimum (and the same with BASELINE_CHECK,
      # an older permbb-gpu-check, when given).
      for run in "$BIN/permbb-gpu-check --bound lb2" \
                 ${BASELINE_CHECK:+"$BASELINE_CHECK --bound lb2"}; do
        read -r check flags <<<"$run"
        echo "# $check ta021 --ub opt $flags" >>"$OUT/lb2-profile.txt"
        timeout 200 ncu --kernel-name regex:explore_kernel --launch-skip 20 --launch-count 1 \
          --section SpeedOfLight --section Occupancy --section LaunchStats \
          --section WarpStateStats --section SchedulerStats --section InstructionStats \
          --section MemoryWorkloadAnalysis "$check" ta021 --ub opt $flags --budget 20 2>&1 \
          | grep -v "^==PROF==" >>"$OUT/lb2-profile.txt"
      done ;;
    bound-choice|bound-choice-long)
      # bench/bound_choice.py on the GPU explorer: which bound is fastest for which Taillard
      # class at the optimum (20 x 20: bench/gpu_lb2.py). bound-choice: the instances whose
      # trees take seconds, three times each; bound-choice-long: 500 x 20, and the proofs that
      # LB1 needs minutes for on one CPU core, once each with a shorter limit.
      if [ "$step" = bound-choice ]; then
        set_args=(--classes 50x10,100x10 --repeat 3 --time-limit 20
                  --instances ta083,ta084,ta090,ta103,ta104,ta105,ta106,ta107,ta108,ta110)
      else
        set_args=(--classes 500x20 --instances ta082,ta101,ta109 --repeat 1 --time-limit 15)
      fi
      timeout 590 python3 bench/bound_choice.py --bin "$BIN/permbb" --engine=--gpu \
        "${set_args[@]}" --json "$OUT/$step.json" 2>&1 | tee -a "$OUT/$step.md" ;;
    scale)
      # docs/scale.md, validation on one host: one CPU rank's rate on ta023 at the optimum
      # (alone, and 15 independent runs at once), 15 CPU worker ranks at one thread each (this
      # build, then BASELINE_BIN's coordinator when given), and two GPU workers sharing the GPU
      # (handovers through the GPU engine: the node count must be the single process's,
      # 3,261,576,056 on ta023).
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      timeout 60 "$BIN/permbb" solve ta023 --ub opt --no-gpu --threads 1 --time-limit 15 \
        --heuristic-threads 0 --quiet --json "$OUT/scale_rate1.json"
      pids=()
      for i in $(seq 1 15); do
        timeout 60 "$BIN/permbb" solve ta023 --ub opt --no-gpu --threads 1 --time-limit 15 \
          --heuristic-threads 0 --quiet --json "$OUT/scale_rate15_$i.json" & pids+=($!)
      done
      wait "${pids[@]}"
      for b in "$BIN/permbb" ${BASELINE_BIN:-}; do
        tag=$([ "$b" = "$BIN/permbb" ] && echo new || echo base)
        timeout 280 mpirun --oversubscribe -np 16 "$b" solve ta023 --ub opt --no-gpu \
          --threads 1 --heuristic-threads 0 --quiet --json "$OUT/scale_cpu15_$tag.json"
        timeout 200 mpirun --oversubscribe -np 3 "$b" solve ta023 --ub opt --gpu --quiet \
          --json "$OUT/scale_gpu2_$tag.json"
      done
      python3 - "$OUT" <<'PY' | tee -a "$OUT/scale.md"
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
rate = json.loads((out / "scale_rate1.json").read_text())
r1 = rate["nodes_decomposed"] / rate["seconds"]
print(f"one CPU rank: {r1:.0f} nodes/s")
at_once = [json.loads(f.read_text()) for f in out.glob("scale_rate15_*.json")]
rates = [r["nodes_decomposed"] / r["seconds"] for r in at_once]
print(f"15 at once: {sum(rates) / len(rates):.0f} nodes/s each on average")
for f in sorted(out.glob("scale_*_*.json")):
    if f.name.startswith("scale_rate"):
        continue
    r = json.loads(f.read_text())
    c = r["cluster"]
    line = (f"{f.stem}: {r['status']} nodes {r['nodes_decomposed']} wall {r['seconds']:.2f} s "
            f"busy {c['coordinator_busy_fraction']:.3f} splits {c['splits']} "
            f"handovers {c.get('handovers', '-')} work messages {c['work_messages']} "
            f"first idle {c['first_idle_seconds']:.2f} s")
    if "cpu15" in f.name:
        line += f" efficiency {r['nodes_decomposed'] / (15 * r1) / r['seconds']:.3f}"
    print(line)
PY
      ;;
    lb2-shared-sanitize)
      # LB2 with a node's pair terms shared by its children (warp_lb2_shared.cuh) under the
      # sanitizers.
      for check in "memcheck ta021 --bound lb2 --lb2-shared 1" \
                   "racecheck ta021 --bound lb2 --lb2-shared 1" \
                   "synccheck ta021 --bound lb2 --lb2-shared 1" \
                   "memcheck ta021 --bound lb1+lb2 --lb2-shared 1" "memcheck ta051 --bound lb2"; do
        read -r tool instance flags <<<"$check"
        echo "# $tool $instance $flags" >>"$OUT/lb2-shared-sanitize.log"
        timeout 150 compute-sanitizer --tool "$tool" "$BIN/permbb-gpu-check" "$instance" --ub opt \
          --ivms 64 --steps 8 --budget 2 $flags 2>&1 | tail -4 | tee -a "$OUT/lb2-shared-sanitize.log"
      done ;;
    lb2-shared)
      # bench/gpu_lb2.py on ta021-ta030 at the optimum: the sharing threshold swept (0: the
      # screen alone), lb2 and lb1+lb2; node counts must agree per bound.
      timeout 590 python3 bench/gpu_lb2.py --bin "$BIN/permbb-gpu-check" --budget 60 \
        --configs "${LB2_SHARED_CONFIGS:-lb2@lb2-shared=0,lb2@lb2-shared=4,lb2,lb2@lb2-shared=16,lb1+lb2@lb2-shared=0,lb1+lb2,lb1+lb2@lb2-shared=2}" \
        --json "$OUT/lb2-shared.json" 2>&1 | tee -a "$OUT/lb2-shared.md" ;;
    lb2-placements)
      # The LB2 kernels take the IVM's placement at launch: each placement under memcheck,
      # racecheck and synccheck, then ta021-ta030 (bench/gpu_lb2.py) and each forced placement
      # on ta021 against BASELINE_CHECK, alternated; node counts must agree.
      for p in 1 2 3; do
        for tool in memcheck racecheck synccheck; do
          timeout 120 compute-sanitizer --tool $tool "$BIN/permbb-gpu-check" ta021 --bound lb2 \
            --placement $p --ub opt --ivms 64 --steps 8 --budget 2 2>&1 | tail -3 \
            | tee -a "$OUT/lb2-placements.log"
        done
      done
      timeout 320 python3 bench/gpu_lb2.py --bin "$BIN/permbb-gpu-check" \
        ${BASELINE_CHECK:+--baseline-bin "$BASELINE_CHECK"} --configs lb2,lb1+lb2 --budget 60 \
        --json "$OUT/lb2-placements.json" 2>&1 | tee -a "$OUT/lb2-placements.md"
      for p in 1 2 3; do
        for check in ${BASELINE_CHECK:+"$BASELINE_CHECK"} "$BIN/permbb-gpu-check" \
                     ${BASELINE_CHECK:+"$BASELINE_CHECK"} "$BIN/permbb-gpu-check"; do
          timeout 30 "$check" ta021 --ub opt --bound lb2 --placement $p --budget 8 2>&1 | tail -1 \
            | tee -a "$OUT/lb2-placements.jsonl"
        done
      done ;;
    lb2-large)
      # LB2 from 200 jobs up: rates over 10 s at the optimum, the GPU (this build, and
      # BASELINE_CHECK when given) against one CPU thread (permbb-cpu-check).
      for instance in ${LB2_LARGE:-ta101 ta105 ta110}; do
        for bound in lb2 lb1+lb2; do
          for check in "$BIN/permbb-gpu-check" "$BIN/permbb-gpu-check --lb2-shared 16" \
                       ${BASELINE_CHECK:+"$BASELINE_CHECK"} "$BIN/permbb-cpu-check --threads 1"; do
            timeout 100 $check "$instance" --ub opt --bound "$bound" --budget 10 2>&1 \
              | tail -1 | tee -a "$OUT/lb2-large.jsonl"
          done
        done
      done ;;
    teams)
      # Warp packing (docs/gpu.md, "Teams"): LB1 with 32, 16 and 8 lanes per IVM, each with the
      # placement the engine picks and with everything in shared memory forced; whole searches
      # of ta021 and ta023 at the optimum, rates over 10 s on 50, 100 and 200 jobs.
      for args in "ta021 --ub opt" "ta023 --ub opt" "ta056 --ub 3674 --budget 10" \
                  "ta090 --ub 6405 --budget 10" "ta101 --ub 11156 --budget 10"; do
        for width in 32 16 8; do
          for placement in 0 1; do
            [ $placement = 1 ] && [ "${args%% *}" != ta021 ] && continue
            timeout 120 "$BIN/permbb-gpu-check" $args --team-width $width \
              --placement $placement 2>&1 | tee -a "$OUT/teams.jsonl"
          done
        done
      done ;;
    compare)
      # bench/gpu.py --baseline-bin: this build against BASELINE_BIN, runs alternated; whole
      # searches of ta021-ta030 at their optima, rates over 12 s on ta056 and ta090.
      cases="ta021,ta022,ta023,ta024,ta025,ta026,ta027,ta028,ta029,ta030"
      timeout 590 python3 bench/gpu.py --bin "$BIN/permbb" --baseline-bin "$BASELINE_BIN" \
        --cases "$cases,ta056:3674:12,ta090:6405:12" --repeat "${COMPARE_REPEAT:-2}" \
        --json "$OUT/compare.json" 2>&1 | tee -a "$OUT/compare.md" ;;
    occupancy)
      # ncu on LB1's exploration kernel (ta021 at the optimum, three launches after the start),
      # this build (each team width) and BASELINE_CHECK (or BASELINE_BIN's solve): registers per
      # thread, theoretical and achieved occupancy, warp execution efficiency (threads per
      # executed instruction / 32).
      metrics=launch__registers_per_thread,sm__maximum_warps_per_active_cycle_pct
      metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active
      metrics=$metrics,smsp__thread_inst_executed_per_inst_executed.ratio
      metrics=$metrics,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
      for run in new-32 new-16 new-8 old; do
        case $run in
          new-*) command=("$BIN/permbb-gpu-check" ta021 --ub opt --budget 20
                          --team-width "${run#new-}") ;;
          old) if [ -n "${BASELINE_CHECK:-}" ]; then
                 command=("$BASELINE_CHECK" ta021 --ub opt --budget 20)
               elif [ -n "${BASELINE_BIN:-}" ]; then
                 command=("$BASELINE_BIN" solve ta021 --ub opt --gpu --heuristic-threads 0 --quiet)
               else
                 continue
               fi ;;
        esac
        echo "# $run: ${command[*]}" >>"$OUT/occupancy.csv"
        timeout 240 ncu --kernel-name regex:explore_kernel --launch-skip 20 --launch-count 3 \
          --metrics "$metrics" --csv "${command[@]}" 2>&1 \
          | grep -v "^==PROF==" | tee -a "$OUT/occupancy.csv"
      done ;;
    bench)
      timeout 250 python3 bench/gpu.py --bin "$BIN/permbb" --cpu-budget 10 --gpu-budget 20 \
        --json "$OUT/bench.json" 2>&1 | tee -a "$OUT/bench.md" ;;
  esac
done
