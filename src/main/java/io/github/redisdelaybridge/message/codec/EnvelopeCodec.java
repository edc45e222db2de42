package io.github.redisdelaybridge.message.codec;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Binary, versioned encoding of an {@link Envelope} for storage in Redis: version 3 (docs/storage-formats.md has it with
 * the other stored forms).
 *
 * <p><b>Version 3, wire form</b>: what this class writes and reads. A varint is unsigned LEB128 (7 bits a
 * byte, low group first, the high bit set on every byte but the last).
 * <pre>
 *   byte 0   0xDB magic
 *   byte 1   3    version
 *   byte 2   flags: 0x01 key present, 0x02 headers present, 0x04 headers typed (a format byte each),
 *                   0x08 properties present, 0x10 origin ends in a number, 0x20 tombstone (no body),
 *                   0x40 the headers hold x-group (the message is indexed under its group)
 *   varint length, UTF-8   target, e.g. kafka:orders.expired
 *   varint length, UTF-8   origin stem: the origin without its trailing number, e.g. kafka:delay.inbound/0@
 *   varint                 origin number, e.g. the Kafka offset 42                         (flag 0x10)
 *   varint length, bytes   key                                                             (flag 0x01)
 *   varint count, then per header: varint length + UTF-8 name,
 *                   format byte (0 raw, 1 AMQP field value; flag 0x04 only),
 *                   varint (length + 1) + value bytes, 0 for a null value                 (flag 0x02)
 *   varint count, then per property: varint length + UTF-8 name, varint length + UTF-8 value (flag 0x08)
 *   the body: every byte that is left (none, and flag 0x20, for a Kafka tombstone)
 * </pre>
 * There is no message id: the payloads hash field the envelope is stored under is the id (as its member,
 * {@code lua/lib/memberIds}), and the claim that returns it returns the id, so {@link #decode(String, byte[])}
 * takes it from the caller. An absent key, an empty header
 * list, no properties and a tombstone cost a flag bit instead of a byte each; the body carries no length.
 * How the origin is split into stem and number: {@link OriginParts}.
 *
 * <p><b>Version 3, stored form</b>: what the payloads hash holds. The scripts that write a payload
 * ({@code lua/lib/internNames.lua}) replace target and origin stem with small codes from the slot's names
 * hash (the store's per-slot {@code names} hash); the scripts that return one ({@code lua/lib/expandNames.lua}) put the
 * text back, so the bridge never sees this form:
 * <pre>
 *   byte 0   the names hash's tag (a byte drawn when that hash was created: a payload whose tag differs
 *            was interned into a names hash that no longer exists, and is not expanded)
 *   byte 1   0x80 + flags: the high bit marks the stored form; the flags are the wire form's
 *   varint   target code
 *   varint   origin stem code
 *   the rest of the wire form, unchanged (origin number onward)
 * </pre>
 * A stored form that reaches {@link #decode} is one that could not be expanded (its codes are missing from the
 * names hash); it is refused with a message that says so, and the dispatcher dead-letters it as
 * {@code corrupt-envelope}.
 *
 * <p>The payload is copied as bytes, so it comes out exactly as it went in. A reader refuses a version it
 * does not know rather than guessing, so a newer bridge's records are never mangled by an older one.
 */
public final class EnvelopeCodec {

    static final int MAGIC = 0xDB;
    static final int VERSION_COMPACT = 3;
    /** Set in byte 1 of version 3's stored form (target and origin stem interned): only ever inside Redis. */
    static final int STORED_FORM_BIT = 0x80;

    static final int FLAG_KEY = 0x01;
    static final int FLAG_HEADERS = 0x02;
    static final int FLAG_TYPED_HEADERS = 0x04;
    static final int FLAG_PROPERTIES = 0x08;
    public static final int FLAG_ORIGIN_NUMBER = 0x10;
    static final int FLAG_TOMBSTONE = 0x20;
    /**
     * The headers hold {@code x-group}: the message is indexed under its group, and the scripts and the settling side know
     * from this one bit, without reading the headers, whether a message has a group index to keep up.
     */
    public static final int FLAG_GROUPED = 0x40;

    private EnvelopeCodec() {
    }

    /** The wire form of version 3; the envelope's message id is not part of it. */
    public static byte[] encode(Envelope envelope) {
        return CompactEnvelopeWriter.write(envelope);
    }

    /**
     * The group of an envelope in its wire form ({@code x-group}, decoded as UTF-8), or null when it has none: only an
     * envelope with {@link #FLAG_GROUPED} is decoded, so an ungrouped one costs a look at one byte.
     */
    public static String groupOf(byte[] wire) {
        if (wire.length < 3 || (wire[2] & FLAG_GROUPED) == 0 || (wire[1] & STORED_FORM_BIT) != 0) {
            return null;
        }
        try {
            return decode("group", wire).headers().stream().filter(h -> h.name().equals(HeaderNames.GROUP)).findFirst()
                    .map(MessageHeader::plainBytes).map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null);
        } catch (IllegalArgumentException unreadable) {
            return null;
        }
    }

    /**
     * @param messageId the id the envelope is stored under (payloads hash field, claim result)
     * @throws IllegalArgumentException when the bytes are not an envelope this bridge can read; the message says why
     */
    public static Envelope decode(String messageId, byte[] encoded) {
        Objects.requireNonNull(messageId, "messageId");
        if (encoded.length >= 2 && (encoded[1] & STORED_FORM_BIT) != 0) {
            throw new IllegalArgumentException("envelope still in Redis's stored form: its target and origin codes could not be turned"
                    + " back into names, because the slot's names hash lacks them (was that key deleted or replaced?)");
        }
        EnvelopeInput in = new EnvelopeInput(encoded, 0);
        int magic = in.unsignedByte();
        if (magic != MAGIC) {
            throw new IllegalArgumentException("not an envelope: first byte 0x" + Integer.toHexString(magic));
        }
        int version = in.unsignedByte();
        if (version != VERSION_COMPACT) {
            throw new IllegalArgumentException("unsupported envelope version " + version + " (this bridge reads " + VERSION_COMPACT + ")");
        }
        return CompactEnvelopeReader.read(messageId, in);
    }
}
