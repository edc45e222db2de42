package io.github.redisdelaybridge.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The precision warm-up reads another JVM's compiler time with jstat: here read of this JVM, against its own MXBean. */
class JitWarmupTest {

    @Test
    void readsAJvmsCompilerTimeAsThatJvmCountsIt() {
        long before = JitWarmup.compileMillis();
        long read = JitWarmup.compileMillis(ProcessHandle.current().pid());
        long after = JitWarmup.compileMillis();

        assertThat(before).isPositive();
        // jstat prints hundredths of a second
        assertThat(read).isBetween(before - 10, after + 10);
    }

    @Test
    void aProcessThatIsNoJvmHasNoCompilerTime() {
        assertThat(JitWarmup.compileMillis(Long.MAX_VALUE)).isEqualTo(-1);
    }
}
