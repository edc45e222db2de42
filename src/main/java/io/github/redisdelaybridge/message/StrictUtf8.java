package io.github.redisdelaybridge.message;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes as text only when they are valid UTF-8. {@code new String(bytes, UTF_8)} would replace a bad
 * sequence with U+FFFD, so bytes that are not text would pass for text and lose what they were.
 */
public final class StrictUtf8 {

    private StrictUtf8() {
    }

    /** The text, or null when the bytes are not valid UTF-8. */
    public static String decode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
