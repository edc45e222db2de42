package io.github.redisdelaybridge.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.LongSummaryStatistics;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final int SAMPLES = 500;

    private final RetryPolicy policy = new RetryPolicy(100, 2, 10_000, 60_000, 5);

    @Test
    void everyBackoffLiesBetweenHalfAndAllOfItsExponentialStep() {
        for (int attempt = 1; attempt <= 12; attempt++) {
            long step = Math.min(10_000, 100L << (attempt - 1));
            LongSummaryStatistics backoffs = sample(policy, attempt);

            assertThat(backoffs.getMin()).as("shortest backoff after %d failures", attempt).isGreaterThanOrEqualTo(step / 2);
            assertThat(backoffs.getMax()).as("longest backoff after %d failures", attempt).isLessThanOrEqualTo(step);
        }
    }

    @Test
    void backoffGrowsExponentiallyUntilTheCap() {
        // ranges [50,100], [100,200], [200,400], [400,800]: averages about double from one attempt to the next
        double previous = sample(policy, 1).getAverage();
        for (int attempt = 2; attempt <= 4; attempt++) {
            double average = sample(policy, attempt).getAverage();
            assertThat(average / previous).as("growth from attempt %d to %d", attempt - 1, attempt).isBetween(1.6, 2.4);
            previous = average;
        }
    }

    @Test
    void backoffStopsGrowingAtTheCap() {
        for (int attempt : new int[] {8, 20, 64, 1_000, Integer.MAX_VALUE}) {
            LongSummaryStatistics backoffs = sample(policy, attempt);

            assertThat(backoffs.getMin()).isGreaterThanOrEqualTo(5_000);
            assertThat(backoffs.getMax()).isLessThanOrEqualTo(10_000);
        }
    }

    @Test
    void backoffIsJittered() {
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < SAMPLES; i++) {
            distinct.add(policy.backoffMs(5));
        }

        assertThat(distinct).hasSizeGreaterThan(50);
    }

    @Test
    void zeroOrNegativeFailuresBackOffLikeTheFirst() {
        assertThat(sample(policy, 0).getMax()).isLessThanOrEqualTo(100);
        assertThat(sample(policy, -5).getMin()).isGreaterThanOrEqualTo(50);
    }

    @Test
    void zeroBaseNeverWaits() {
        RetryPolicy immediate = new RetryPolicy(0, 2, 0, 60_000, 3);

        assertThat(sample(immediate, 1).getMax()).isZero();
        assertThat(sample(immediate, 10).getMax()).isZero();
    }

    @Test
    void factorOneKeepsTheBackoffConstant() {
        RetryPolicy constant = new RetryPolicy(1_000, 1, 60_000, 60_000, 3);

        LongSummaryStatistics late = sample(constant, 30);
        assertThat(late.getMin()).isGreaterThanOrEqualTo(500);
        assertThat(late.getMax()).isLessThanOrEqualTo(1_000);
    }

    @Test
    void exhaustedOnceFailuresReachMaxAttempts() {
        assertThat(policy.exhausted(0)).isFalse();
        assertThat(policy.exhausted(4)).isFalse();
        assertThat(policy.exhausted(5)).isTrue();
        assertThat(policy.exhausted(6)).isTrue();
    }

    @Test
    void singleAttemptPolicyIsExhaustedAfterOneFailure() {
        RetryPolicy once = new RetryPolicy(100, 2, 100, 60_000, 1);

        assertThat(once.exhausted(0)).isFalse();
        assertThat(once.exhausted(1)).isTrue();
    }

    @Test
    void noBoundByCountWhenMaxAttemptsIsZero() {
        RetryPolicy byTimeOnly = new RetryPolicy(100, 2, 1_000, 60_000, 0);

        assertThat(byTimeOnly.exhausted(1)).isFalse();
        assertThat(byTimeOnly.exhausted(10)).isFalse();
        assertThat(byTimeOnly.exhausted(Integer.MAX_VALUE)).isFalse();
    }

    @Test
    void tooOldOnceFailingForLongerThanTheMaximumAge() {
        RetryPolicy day = new RetryPolicy(1_000, 2, 60_000, 86_400_000, 0);

        assertThat(day.tooOld(0)).isFalse();
        assertThat(day.tooOld(86_400_000)).isFalse();
        assertThat(day.tooOld(86_400_001)).isTrue();
    }

    @Test
    void zeroMaximumAgeGivesUpAtTheSecondFailure() {
        // the first failure starts the clock (age 0); any later one is older
        RetryPolicy noAge = new RetryPolicy(100, 2, 1_000, 0, 0);

        assertThat(noAge.tooOld(0)).isFalse();
        assertThat(noAge.tooOld(1)).isTrue();
    }

    @Test
    void rejectsNegativeMaximumAge() {
        assertThatThrownBy(() -> new RetryPolicy(100, 2, 1_000, -1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxAge=-1");
    }

    @Test
    void rejectsNegativeBase() {
        assertInvalid(-1, 2, 100, 3);
    }

    @Test
    void rejectsFactorBelowOne() {
        assertInvalid(100, 0.99, 1_000, 3);
        assertInvalid(100, 0, 1_000, 3);
        assertInvalid(100, -2, 1_000, 3);
    }

    @Test
    void rejectsNaNFactor() {
        assertInvalid(100, Double.NaN, 1_000, 3);
    }

    @Test
    void rejectsCapBelowBase() {
        assertInvalid(1_000, 2, 999, 3);
    }

    @Test
    void rejectsNegativeMaxAttempts() {
        assertInvalid(100, 2, 1_000, -1);
    }

    private static void assertInvalid(long baseMs, double factor, long capMs, int maxAttempts) {
        assertThatThrownBy(() -> new RetryPolicy(baseMs, factor, capMs, 60_000, maxAttempts))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad retry policy");
    }

    private static LongSummaryStatistics sample(RetryPolicy policy, int failedAttempts) {
        return LongStream.range(0, SAMPLES).map(i -> policy.backoffMs(failedAttempts)).summaryStatistics();
    }
}
