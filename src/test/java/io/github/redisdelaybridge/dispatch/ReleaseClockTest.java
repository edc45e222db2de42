package io.github.redisdelaybridge.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The release time of a message claimed ahead: never before its due time on Redis's clock, and not made later by an
 * answer that was picked up late. A hand-driven monotonic clock; Redis's clock is what the answers say.
 */
class ReleaseClockTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** This process's monotonic clock read this much (in ns) when Redis's clock read 0: the offset to be bounded. */
    private static final long OFFSET = 5_000_000 * MS;

    private final AtomicLong nanoTime = new AtomicLong(OFFSET + 1_000_000 * MS);
    private final ReleaseClock clock = new ReleaseClock(nanoTime::get);

    @Test
    void aMessageIsReleasedWhenItsDueTimeHasPassedOnRedisClockPlusTheAnswerTime() {
        // Redis read 1,000,000 ms; the answer was seen 2 ms after that instant
        clock.observe(1_000_000, OFFSET + 1_000_002 * MS);
        nanoTime.set(OFFSET + 1_000_002 * MS);

        assertThat(clock.nanosUntil(1_000_050)).as("due 50 ms after Redis's reading: 48 ms from now, plus the 2 ms the answer took")
                .isEqualTo(50 * MS);
        assertThat(clock.nanosUntil(1_000_000)).as("due at Redis's reading: released once the answer time has passed").isEqualTo(0);
        assertThat(clock.nanosUntil(999_990)).as("already due").isNegative();
    }

    @Test
    void releasableUpToIsTheLatestDueTimeWhoseReleaseHasCome() {
        clock.observe(1_000_000, OFFSET + 1_000_002 * MS);
        nanoTime.set(OFFSET + 1_000_052 * MS);

        assertThat(clock.releasableUpTo()).as("50 ms after the answer, bound 2 ms: due times up to 1,000,050").isEqualTo(1_000_050);
        assertThat(clock.nanosUntil(1_000_050)).isZero();
        assertThat(clock.nanosUntil(1_000_051)).isPositive();
    }

    @Test
    void nothingObservedHoldsNothing() {
        assertThat(clock.releasableUpTo()).isEqualTo(Long.MAX_VALUE);
        assertThat(clock.nanosUntil(Long.MAX_VALUE / 2_000_000)).isZero();
    }

    @Test
    void aReadingFromBeforeAPauseInClaimingIsForgotten() {
        clock.observe(5_000_000, OFFSET + 5_000_001 * MS);
        // no claim answer for 10 s (Redis down); meanwhile Redis's clock was set back 500 ms
        long now = OFFSET + 5_010_001 * MS;
        clock.observe(5_010_000 - 500, now);
        nanoTime.set(now);

        assertThat(clock.nanosUntil(5_010_000 - 500 + 40)).as("the bound of 10 s ago (1 ms, on the old clock) no longer counts")
                .isEqualTo(40 * MS);
    }

    @Test
    void neverEarlyWhateverTheAnswerTimes() {
        long redisMs = 2_000_000;
        for (long answerMs : new long[] {0, 1, 7, 30, 3}) {
            long seenAt = OFFSET + (redisMs + answerMs) * MS;
            clock.observe(redisMs, seenAt);
            nanoTime.set(seenAt);
            long dueAt = redisMs + 40;
            long releasedAt = nanoTime.get() + clock.nanosUntil(dueAt);
            assertThat(releasedAt - OFFSET).as("released at or after the due time on Redis's clock (answer took %d ms)", answerMs)
                    .isGreaterThanOrEqualTo(dueAt * MS);
            redisMs += 100;
        }
    }

    @Test
    void anAnswerPickedUpLateDoesNotDelayTheMessagesOfLaterRounds() {
        clock.observe(3_000_000, OFFSET + 3_000_001 * MS);
        // the next answer waited 40 ms for the dispatch thread
        clock.observe(3_000_010, OFFSET + 3_000_050 * MS);
        nanoTime.set(OFFSET + 3_000_050 * MS);

        assertThat(clock.nanosUntil(3_000_080)).as("held by the tightest bound seen (1 ms), not the late one (40 ms)").isEqualTo(31 * MS);
    }

    @Test
    void aRedisClockSetBackIsFollowedWithinTwoWindows() {
        clock.observe(4_000_000, OFFSET + 4_000_001 * MS);
        // Redis's clock is set back 500 ms: from now on every answer reads 500 ms less than before
        long now = OFFSET + 4_000_001 * MS;
        for (int i = 1; i <= 25; i++) {
            now += 100 * MS;
            clock.observe(4_000_000 + i * 100L - 500, now);
        }
        nanoTime.set(now);
        long redisNow = 4_000_000 + 25 * 100L - 500;

        assertThat(clock.nanosUntil(redisNow + 40)).as("2.5 s later, the old reading no longer counts: 39 ms on Redis's new clock, plus the 1 ms answer")
                .isEqualTo(40 * MS);
    }
}
