package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DueTimeParserTest {

    private static final long MAX_DELAY_MS = 31_536_000_000L;

    private final DueTimeParser parser = new DueTimeParser(MAX_DELAY_MS);

    // --- x-delay -------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0|0",
            "1500|1500",
            "' 1500 '|1500",
            "'\t1500\n'|1500",
            "0001500|1500",
            "31536000000|31536000000"})
    void parsesDelayInWholeMilliseconds(String text, long expectedMs) throws Rejection {
        assertThat(parser.parseDelay(text)).isEqualTo(new DueTime.AfterDelay(expectedMs));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "PT30S|30000",
            "PT1.5S|1500",
            "PT1,5S|1500",
            "P1D|86400000",
            "P1DT2H3M4.005S|93784005",
            "PT0S|0",
            "pt2m|120000",
            "' PT30S\t'|30000",
            "PT0.001S|1",
            "P365D|31536000000"})
    void parsesIsoDurations(String text, long expectedMs) throws Rejection {
        assertThat(parser.parseDelay(text)).isEqualTo(new DueTime.AfterDelay(expectedMs));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "PT0.0005S|1",
            "PT0.000000001S|1",
            "PT1.0001S|1001",
            "PT1.999999999S|2000"})
    void roundsSubMillisecondDurationsUp(String text, long expectedMs) throws Rejection {
        assertThat(parser.parseDelay(text)).isEqualTo(new DueTime.AfterDelay(expectedMs));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5", "1500.0", "1500.2", "0.0001", ".5", "5.", "1,500", "+1500"})
    void refusesAFractionOrSignedNumberSayingMillisecondsAsAnInteger(String text) {
        Rejection rejection = catchThrowableOfType(Rejection.class, () -> parser.parseDelay(text));

        assertThat(rejection).as("x-delay '%s' must be rejected", text).isNotNull();
        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(rejection.detail()).contains("whole number of milliseconds").contains("integer").contains("PT1.5S");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-0.5", "-PT5S", "PT-5S", "P-1D", "-P1D"})
    void refusesNegativeDelays(String text) {
        Rejection rejection = catchThrowableOfType(Rejection.class, () -> parser.parseDelay(text));

        assertThat(rejection).as("x-delay '%s' must be rejected", text).isNotNull();
        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(rejection.detail()).contains("must not be negative");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "", "   ", "1e3", "1_500", "1500ms", "0x10", "١٥٠٠", "NaN", "Infinity", "P", "PT", "P1W", "P1M",
            "P1Y", "PT1.0000000001S", "PT 30S", "30S", "P1DT", "PT99999999999999999999S"})
    void rejectsDelayThatIsNeitherWholeMillisecondsNorAnIsoDuration(String text) {
        assertThat(delayRejection(text)).isEqualTo(DeadLetterReason.INVALID_DELAY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"31536000001", "9223372036854775807", "9223372036854775808",
            "99999999999999999999999999999999999999", "P365DT0.001S", "P366D", "PT9223372036854775807S"})
    void rejectsDelayBeyondTheMaximumAsTooLong(String text) {
        assertThat(delayRejection(text)).isEqualTo(DeadLetterReason.DELAY_TOO_LONG);
    }

    @Test
    void delayRejectionDetailIsAbbreviatedForHugeInput() {
        Rejection rejection = catchThrowableOfType(Rejection.class, () -> parser.parseDelay("x".repeat(10_000)));

        assertThat(rejection.detail()).hasSizeLessThan(200).contains("...");
    }

    @Test
    void aTextLongerThanAnyDelayIsRefusedBeforeItIsRead() {
        // the admin API passes its JSON fields here directly, without the inbound header limits
        String digitsThenLetter = "1".repeat(200_000) + "x";
        long start = System.nanoTime();
        Rejection delay = catchThrowableOfType(Rejection.class, () -> parser.parseDelay(digitsThenLetter, "delayMs"));
        Rejection deliverAt = catchThrowableOfType(Rejection.class, () -> parser.parseDeliverAt(digitsThenLetter, "deliverAt"));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(delay.reason()).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(delay.detail()).contains("delayMs").contains("200001 characters").contains("at most 64").hasSizeLessThan(200);
        assertThat(deliverAt.reason()).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(deliverAt.detail()).contains("deliverAt").contains("200001 characters");
        assertThat(elapsedMs).as("ms to refuse both").isLessThan(500);
    }

    @Test
    void zeroPaddingDoesNotMakeANumberTooLong() throws Rejection {
        assertThat(parser.parseDelay("0".repeat(60) + "1500")).isEqualTo(new DueTime.AfterDelay(1500));
        assertThat(parser.parseDelay("0".repeat(64))).isEqualTo(new DueTime.AfterDelay(0));
        assertThat(parser.parseDeliverAt("0".repeat(51) + "1764450000000")).isEqualTo(new DueTime.At(1_764_450_000_000L));
        assertThat(delayRejection("0".repeat(40) + "9".repeat(19))).isEqualTo(DeadLetterReason.DELAY_TOO_LONG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\uFF11\uFF15\uFF10\uFF10", "\u0967\u096B\u0966\u0966", "1\u0665\u0660\u0660", "PT\uFF13S"})
    void digitsOfOtherScriptsAreNotMilliseconds(String text) {
        assertThat(delayRejection(text)).as("x-delay %s", text).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(deliverAtRejection(text)).as("x-deliver-at %s", text).isEqualTo(DeadLetterReason.INVALID_DELAY);
    }

    // --- x-deliver-at: epoch milliseconds ------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0|0",
            "1764450000000|1764450000000",
            "' 1764450000000 '|1764450000000",
            "999999999999999|999999999999999"})
    void parsesDeliverAtEpochMilliseconds(String text, long expectedEpochMs) throws Rejection {
        assertThat(parser.parseDeliverAt(text)).isEqualTo(new DueTime.At(expectedEpochMs));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1000000000000000", "9223372036854775807", "9223372036854775808", "123456789012345678901234567890"})
    void rejectsEpochMillisecondsBeyondAnyPossibleMaximumAsTooLong(String text) {
        assertThat(deliverAtRejection(text)).isEqualTo(DeadLetterReason.DELAY_TOO_LONG);
    }

    // --- x-deliver-at: ISO-8601 instants ------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2026-12-01T10:00:00Z|2026-12-01T10:00:00Z",
            "' 2026-12-01T10:00:00Z '|2026-12-01T10:00:00Z",
            "2026-12-01T10:00:00.123Z|2026-12-01T10:00:00.123Z",
            "2026-12-01T11:00:00+01:00|2026-12-01T10:00:00Z",
            "2026-12-01T05:30:00-04:30|2026-12-01T10:00:00Z",
            "2026-12-01T10:00:00.250+02:00|2026-12-01T08:00:00.250Z",
            "1970-01-01T00:00:00Z|1970-01-01T00:00:00Z"})
    void parsesIsoInstantsWithZoneOrOffset(String text, String expectedUtc) throws Rejection {
        assertThat(parser.parseDeliverAt(text)).isEqualTo(new DueTime.At(Instant.parse(expectedUtc).toEpochMilli()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2026-12-01T10:00:00.1234Z|2026-12-01T10:00:00.124Z",
            "2026-12-01T10:00:00.000000001Z|2026-12-01T10:00:00.001Z",
            "2026-12-01T10:00:00.999999999Z|2026-12-01T10:00:01Z",
            "2026-12-01T11:00:00.0005+01:00|2026-12-01T10:00:00.001Z"})
    void roundsSubMillisecondInstantsUp(String text, String expectedUtc) throws Rejection {
        assertThat(parser.parseDeliverAt(text)).isEqualTo(new DueTime.At(Instant.parse(expectedUtc).toEpochMilli()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "tomorrow", "2026-12-01", "2026-12-01T10:00:00", "2026-12-01 10:00:00Z",
            "2026-13-01T10:00:00Z", "2026-12-01T25:00:00Z", "2026-12-01T10:00:00+25:00", "-1", "-1764450000000", "1.5",
            "1e12", "2026-12-01T10:00:00Zjunk"})
    void rejectsGarbageDeliverAtAsInvalid(String text) {
        assertThat(deliverAtRejection(text)).isEqualTo(DeadLetterReason.INVALID_DELAY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:30:00+01:00",
            "0001-01-01T00:00:00Z", "-999999999-01-01T00:00:00Z"})
    void rejectsInstantsBefore1970AsInvalid(String text) {
        assertThat(deliverAtRejection(text)).isEqualTo(DeadLetterReason.INVALID_DELAY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"+999999999-12-31T23:59:59Z", "+300000000-01-01T00:00:00Z", "+300000000-01-01T01:00:00+01:00"})
    void rejectsInstantsTooFarInTheFutureForEpochMillisecondsAsTooLong(String text) {
        assertThat(deliverAtRejection(text)).isEqualTo(DeadLetterReason.DELAY_TOO_LONG);
    }

    @Test
    void farFutureInstantsThatFitInMillisecondsAreLeftToRedisToJudge() throws Rejection {
        // the maximum delay is measured on Redis's clock, so the parser passes representable instants through
        assertThat(parser.parseDeliverAt("9999-12-31T23:59:59Z"))
                .isEqualTo(new DueTime.At(Instant.parse("9999-12-31T23:59:59Z").toEpochMilli()));
    }

    private DeadLetterReason delayRejection(String text) {
        Rejection rejection = catchThrowableOfType(Rejection.class, () -> parser.parseDelay(text));
        assertThat(rejection).as("x-delay '%s' must be rejected", text).isNotNull();
        return rejection.reason();
    }

    private DeadLetterReason deliverAtRejection(String text) {
        Rejection rejection = catchThrowableOfType(Rejection.class, () -> parser.parseDeliverAt(text));
        assertThat(rejection).as("x-deliver-at '%s' must be rejected", text).isNotNull();
        return rejection.reason();
    }
}
