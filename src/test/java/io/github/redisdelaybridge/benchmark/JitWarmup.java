package io.github.redisdelaybridge.benchmark;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Warm-up for the precision scenarios: unrecorded steps at the measured rate until the JIT compiler has settled. The
 * benchmark JVM holds the Kafka broker, its clients, Camel, Lettuce and the load generator, so its compiler keeps working
 * long after a fixed warm-up: in a precision run started alone, 33 s of the 49 s after one 20 s warm-up step went to
 * compiling (one C2 thread at about two thirds of a core, on a 2-core machine), and every message due meanwhile paid for
 * it (p99 33-42 ms while it compiled 20-28 s a step, 19-24 ms once it compiled 2 s a step). A bridge that runs for days
 * reaches the settled state; that state is what the precision targets are about. Settled here means the compiler worked at
 * most a tenth of a step: a bridge alone in its JVM has far less code to compile than this JVM.
 */
final class JitWarmup {

    /** Settled: the compiler worked at most this share of a step. */
    static final double SETTLED_SHARE = 0.10;
    static final int MAX_STEPS = 8;

    interface Step<T> {
        T run() throws Exception;
    }

    /** What a warm-up ended with: the steps it took and how long the compiler worked during the last one. */
    record Settled(int steps, long lastStepCompileMs, boolean settled) {

        String describe() {
            return String.format("after %d warm-up step(s); JIT %d ms in the last%s", steps, lastStepCompileMs,
                    settled ? "" : " (not settled within " + MAX_STEPS + " steps)");
        }
    }

    private JitWarmup() {
    }

    /** Milliseconds the JIT compiler has worked since the JVM started, or -1 where the JVM does not say. */
    static long compileMillis() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        return compiler != null && compiler.isCompilationTimeMonitoringSupported() ? compiler.getTotalCompilationTime() : -1;
    }

    /** Runs {@code step} (unrecorded) until the compiler worked at most {@link #SETTLED_SHARE} of it, at most {@link #MAX_STEPS} times. */
    static <T> Settled untilSettled(String what, long stepMs, Step<T> step) throws Exception {
        long compiled = 0;
        for (int i = 1; i <= MAX_STEPS; i++) {
            long before = compileMillis();
            T result = step.run();
            compiled = before < 0 ? 0 : compileMillis() - before;
            System.out.printf("(%s warm-up step %d, not recorded: JIT %d ms during it; %s)%n", what, i, compiled, result);
            if (compiled <= SETTLED_SHARE * stepMs) {
                return new Settled(i, compiled, true);
            }
        }
        return new Settled(MAX_STEPS, compiled, false);
    }
}
