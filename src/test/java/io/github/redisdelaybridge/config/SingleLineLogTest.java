package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Text that producers control (message ids, targets, details, the paths of admin requests) cannot forge log lines: through
 * the shipped logback.xml and the text format of {@code bridge.log.format}, every control character of a message is escaped,
 * so a message is one line; stack traces still print as usual, their exception messages escaped too. The JSON format
 * escapes them itself.
 */
class SingleLineLogTest {

    /** An id as a producer could send it in {@code x-message-id}: a line break and an audit line behind it. */
    private static final String FORGED_ID = "order-42\n12:00:00.000 INFO  [main] i.g.r.admin.AdminAuditLog - admin write: DELETE /api/messages/x"
            + " by write-token from 127.0.0.1";
    private static final String CONTROLS = "a\rb\u001b[31mc\u0000d\u0085e\u2028f\tg\u007fh";

    private static LoggerContext shippedConfiguration() throws Exception {
        LoggerContext context = new LoggerContext();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure("src/main/resources/logback.xml");
        return context;
    }

    @SuppressWarnings("unchecked")
    private static Encoder<ILoggingEvent> shippedEncoder(LoggerContext context) {
        return ((OutputStreamAppender<ILoggingEvent>) context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("STDOUT")).getEncoder();
    }

    private static String encode(Encoder<ILoggingEvent> encoder, LoggerContext context, String logger, String pattern, Throwable thrown,
                                 Object... arguments) {
        LoggingEvent event = new LoggingEvent(SingleLineLogTest.class.getName(), context.getLogger(logger), Level.WARN, pattern, thrown, arguments);
        event.setMDCPropertyMap(Map.of("messageId", FORGED_ID));
        return new String(encoder.encode(event), StandardCharsets.UTF_8);
    }

    private static void assertOneLine(String written) {
        assertThat(written).endsWith(System.lineSeparator());
        assertThat(written.lines().toList()).as(written).hasSize(1);
        assertThat(written.strip()).doesNotContainPattern("[\\p{Cntrl}\u0085\u2028\u2029]");
    }

    @Test
    void aForgedIdIsOneLineInTheShippedLayout() throws Exception {
        LoggerContext context = shippedConfiguration();
        Encoder<ILoggingEvent> encoder = shippedEncoder(context);

        String deadLetter = encode(encoder, context, "io.github.redisdelaybridge.deadletter.DeadLetters", "dead-lettering {}: {}", null,
                FORGED_ID, CONTROLS);
        assertOneLine(deadLetter);
        assertThat(deadLetter).contains("dead-lettering order-42\\n12:00:00.000 INFO  [main]")
                .contains("a\\rb\\u001b[31mc\\u0000d\\u0085e\\u2028f\\tg\\u007fh");

        String audit = encode(encoder, context, "io.github.redisdelaybridge.admin.AdminAuditLog", "admin write: {} {} by {} from {}", null,
                "DELETE", "/api/messages/" + FORGED_ID, "write-token", "127.0.0.1:5555");
        assertOneLine(audit);
        context.stop();
    }

    @Test
    void stackTracesPrintAsUsualWithTheirMessagesEscaped() throws Exception {
        LoggerContext context = shippedConfiguration();
        Exception thrown = new RuntimeException("publish of " + FORGED_ID + " failed", new IllegalStateException("target\r\nFORGED line"));

        List<String> lines = encode(shippedEncoder(context), context, "io.github.redisdelaybridge.dispatch.Dispatcher", "publish of {} failed",
                thrown, FORGED_ID).lines().toList();

        assertThat(lines.get(0)).contains("publish of order-42\\n12:00:00.000");
        assertThat(lines.get(1)).startsWith("java.lang.RuntimeException: publish of order-42\\n12:00:00.000");
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("\tat io.github.redisdelaybridge.config.SingleLineLogTest"));
        assertThat(lines).anySatisfy(line -> assertThat(line).isEqualTo("Caused by: java.lang.IllegalStateException: target\\r\\nFORGED line"));
        assertThat(lines).noneSatisfy(line -> assertThat(line).startsWith("FORGED"));
        assertThat(lines.subList(1, lines.size())).allSatisfy(line -> assertThat(line).matches("(java\\.lang\\.|\tat |Caused by: |\t\\.\\.\\. ).*"));
        context.stop();
    }

    @Test
    void theTextFormatOfTheSettingIsOneLineToo() {
        LoggerContext context = new LoggerContext();
        String written = encode(LogFormat.textEncoder(context), context, "io.github.redisdelaybridge.deadletter.DeadLetters", "dead-lettering {}: {}",
                null, FORGED_ID, CONTROLS);

        assertOneLine(written);
        assertThat(written).contains("dead-lettering order-42\\n12:00:00.000");
    }

    @Test
    void theJsonFormatEscapesControlCharactersItself() throws Exception {
        LoggerContext context = new LoggerContext();
        String written = encode(LogFormat.jsonEncoder(context), context, "io.github.redisdelaybridge.deadletter.DeadLetters", "dead-lettering {}: {}",
                new IllegalStateException("target\r\nFORGED"), FORGED_ID, CONTROLS);

        assertThat(written.split("\n", -1)).as(written).hasSize(2).endsWith("");
        JsonNode line = new ObjectMapper().readTree(written);
        assertThat(line.path("formattedMessage").asText()).isEqualTo("dead-lettering " + FORGED_ID + ": " + CONTROLS);
        assertThat(line.path("mdc").path("messageId").asText()).isEqualTo(FORGED_ID);
    }
}
