package io.github.redisdelaybridge.store.script;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ReplyTest {

    enum Head { NOW, NEXT }

    enum Entry { ID, COUNT }

    enum Tail { NOW }

    @Test
    void fieldsAreReadByNameFromTheHeadAndFromEachEntry() {
        Reply<Head, Entry> reply = Reply.shape(Head.class, Entry.class)
                .read(Arrays.asList(100L, null, bytes("a"), 1L, bytes("b"), 2L));

        assertThat(reply.number(Head.NOW)).isEqualTo(100);
        assertThat(reply.numberOrNull(Head.NEXT)).isNull();
        assertThat(reply.entries()).isEqualTo(2);
        assertThat(reply.text(1, Entry.ID)).isEqualTo("b");
        assertThat(reply.number(1, Entry.COUNT)).isEqualTo(2);
        assertThat(reply.bytes(0, Entry.ID)).isEqualTo(bytes("a"));
    }

    @Test
    void aTailIsNotCountedAsAnEntry() {
        Reply<Reply.None, Entry> reply = Reply.entriesThen(Entry.class, Tail.class).read(Arrays.asList(bytes("a"), 1L, bytes("b"), 2L, 100L));

        assertThat(reply.entries()).isEqualTo(2);
        assertThat(reply.number(1, Entry.COUNT)).isEqualTo(2);
    }

    @Test
    void aReplyOfFieldsOnlyHasNoEntries() {
        assertThat(Reply.shape(Head.class).read(Arrays.asList(1L, 2L)).entries()).isZero();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
