package io.github.redisdelaybridge.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The headers both dead-letter channels put on a dead letter, in the order consumers see them. */
class DeadLetterHeadersTest {

    private static DeadLetter deadLetter(String messageId, List<MessageHeader> headers) {
        return new DeadLetter(messageId, DeadLetterReason.PUBLISH_FAILED, "refused 3 times", "kafka:delay.inbound/0@7",
                "kafka:orders", 3, null, headers, Map.of(), new byte[] {1});
    }

    @Test
    void theMessagesHeadersComeFirstThenItsIdThenWhyItIsDead() {
        MessageHeader own = MessageHeader.text("x-delay", "5000");

        List<MessageHeader> headers = DeadLetterHeaders.of(List.of(own), deadLetter("m-1", List.of(own)));

        assertThat(headers).containsExactly(
                own,
                MessageHeader.text(HeaderNames.MESSAGE_ID, "m-1"),
                MessageHeader.text(HeaderNames.DEAD_LETTER_REASON, "publish-failed"),
                MessageHeader.text(HeaderNames.DEAD_LETTER_DETAIL, "refused 3 times"),
                MessageHeader.text(HeaderNames.DEAD_LETTER_ORIGIN, "kafka:delay.inbound/0@7"),
                MessageHeader.text(HeaderNames.DEAD_LETTER_ATTEMPTS, "3"));
    }

    @Test
    void anIdTheMessageCarriesIsNotAddedTwiceAndAMessageWithoutIdGetsNone() {
        MessageHeader producersId = MessageHeader.text(HeaderNames.MESSAGE_ID, "m-1");

        List<MessageHeader> withId = DeadLetterHeaders.of(List.of(producersId), deadLetter("m-1", List.of(producersId)));
        List<MessageHeader> withoutId = DeadLetterHeaders.of(List.of(), deadLetter(null, List.of()));

        assertThat(withId).filteredOn(h -> h.name().equals(HeaderNames.MESSAGE_ID)).containsExactly(producersId);
        assertThat(withoutId).extracting(MessageHeader::name).containsExactly(HeaderNames.DEAD_LETTER_REASON,
                HeaderNames.DEAD_LETTER_DETAIL, HeaderNames.DEAD_LETTER_ORIGIN, HeaderNames.DEAD_LETTER_ATTEMPTS);
    }

    @Test
    void theHeadersAreThoseTheChannelMappedNotTheDeadLettersOwn() {
        MessageHeader mapped = MessageHeader.text("amqp-content-type", "text/plain");

        List<MessageHeader> headers = DeadLetterHeaders.of(List.of(mapped), deadLetter("m-1", List.of()));

        assertThat(headers.get(0)).isEqualTo(mapped);
    }
}
