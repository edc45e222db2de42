package io.github.redisdelaybridge.store.form;

import java.nio.charset.StandardCharsets;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;

/**
 * Redis's stored forms read back on the bridge's side, exactly as {@code lua/lib/memberIds} ({@code ids.toId}) and
 * {@code lua/lib/expandNames} ({@code names.expand}) read them: a packed member becomes its message id, a payload in the
 * stored form becomes the wire form. claim.lua returns both as stored ({@code dispatch/ClaimedNames} resolves them), so that the
 * busiest script leaves this work to the bridge. The byte layouts are documented in those two fragments.
 *
 * <p>{@code nameOf} looks a code up in the slot's names hash (null: unknown); {@code tag} is the hash's tag (-1: none).
 */
public final class StoredForms {

    private static final int PACKED_MARK = 0xFF;
    private static final int STORED_FORM_BIT = 0x80;
    private static final int WIRE_MAGIC = 0xDB;
    private static final int WIRE_VERSION = 3;
    /** Numbers lib/memberIds packs at most (10 and 15 digits: exact as Lua's doubles). */
    private static final long MAX_PARTITION = 9_999_999_999L;
    private static final long MAX_OFFSET = 999_999_999_999_999L;
    /** lib/varint reads at most 8 bytes. */
    private static final int MAX_VARINT_BYTES = 8;

    private StoredForms() {
    }

    /** Whether the member is packed (else it is the id, verbatim). */
    public static boolean isPacked(byte[] member) {
        return member.length > 0 && (member[0] & 0xFF) == PACKED_MARK;
    }

    /** The id of a member; null when it is packed and cannot be read (another tag, an unknown code, damage). */
    public static String idOf(byte[] member, int tag, LongFunction<byte[]> nameOf) {
        if (!isPacked(member)) {
            return new String(member, StandardCharsets.UTF_8);
        }
        long[] parts = packedParts(member, tag);
        if (parts == null) {
            return null;
        }
        byte[] stem = nameOf.apply(parts[0]);
        if (stem == null || stem.length == 0) {
            return null;
        }
        return new String(stem, StandardCharsets.UTF_8) + "-" + parts[1] + "-" + parts[2];
    }

    /** Tells {@code needed} the stem code of a packed member of this tag (nothing for any other member). */
    public static void codesOfMember(byte[] member, int tag, LongConsumer needed) {
        if (isPacked(member)) {
            long[] parts = packedParts(member, tag);
            if (parts != null) {
                needed.accept(parts[0]);
            }
        }
    }

    /** Stem code, partition and offset; null when the member is not of this tag or is damaged. */
    private static long[] packedParts(byte[] member, int tag) {
        if (member.length < 2 || (member[1] & 0xFF) != tag) {
            return null;
        }
        long[] parts = new long[3];
        int at = 2;
        for (int i = 0; i < parts.length; i++) {
            Varint read = readShortestVarint(member, at);
            if (read == null) {
                return null;
            }
            parts[i] = read.value();
            at = read.end();
        }
        if (at != member.length || parts[1] > MAX_PARTITION || parts[2] > MAX_OFFSET) {
            return null;
        }
        return parts;
    }

    /** The wire form of a stored payload; any other payload, or one whose codes cannot be resolved, as it is. */
    public static byte[] expand(byte[] payload, int tag, LongFunction<byte[]> nameOf) {
        long[] head = storedHead(payload, tag);
        if (head == null) {
            return payload;
        }
        byte[] target = nameOf.apply(head[0]);
        byte[] stem = nameOf.apply(head[1]);
        if (target == null || stem == null) {
            return payload;
        }
        int restAt = (int) head[2];
        // sized exactly and filled in place: this runs for every claimed message
        int rest = payload.length - restAt;
        byte[] wire = new byte[3 + varintSize(target.length) + target.length + varintSize(stem.length) + stem.length + rest];
        wire[0] = (byte) WIRE_MAGIC;
        wire[1] = WIRE_VERSION;
        wire[2] = (byte) ((payload[1] & 0xFF) - STORED_FORM_BIT);
        int at = putName(wire, 3, target);
        at = putName(wire, at, stem);
        System.arraycopy(payload, restAt, wire, at, rest);
        return wire;
    }

    /** Tells {@code needed} the target and origin stem codes of a stored payload of this tag (nothing for any other). */
    public static void codesOfPayload(byte[] payload, int tag, LongConsumer needed) {
        long[] head = storedHead(payload, tag);
        if (head != null) {
            needed.accept(head[0]);
            needed.accept(head[1]);
        }
    }

    /** Target code, stem code and where the rest starts; null when the payload is not in the stored form of this tag. */
    private static long[] storedHead(byte[] payload, int tag) {
        if (payload == null || payload.length < 2 || (payload[1] & 0xFF) < STORED_FORM_BIT || (payload[0] & 0xFF) != tag) {
            return null;
        }
        Varint target = readVarint(payload, 2);
        Varint stem = target == null ? null : readVarint(payload, target.end());
        return stem == null ? null : new long[] {target.value(), stem.value(), stem.end()};
    }

    /** A varint read: its value, and the position after it. */
    private record Varint(long value, int end) {
    }

    /** As lib/varint's readVarint: null when the bytes end inside it or it needs more than 8 bytes. */
    private static Varint readVarint(byte[] bytes, int at) {
        long value = 0;
        for (int i = 0; i < MAX_VARINT_BYTES && at + i < bytes.length; i++) {
            int b = bytes[at + i] & 0xFF;
            value |= (long) (b & 0x7F) << (7 * i);
            if (b < 0x80) {
                return new Varint(value, at + i + 1);
            }
        }
        return null;
    }

    /** As {@link #readVarint}, and refused unless written as lib/varint writes it (no high group of zeros). */
    private static Varint readShortestVarint(byte[] bytes, int at) {
        Varint read = readVarint(bytes, at);
        if (read != null && read.end() - at > 1 && bytes[read.end() - 1] == 0) {
            return null;
        }
        return read;
    }

    /** Writes the name's length as a varint and then the name at {@code at}; returns the position after it. */
    private static int putName(byte[] into, int at, byte[] name) {
        int length = name.length;
        while (length >= 0x80) {
            into[at++] = (byte) ((length & 0x7F) | 0x80);
            length >>>= 7;
        }
        into[at++] = (byte) length;
        System.arraycopy(name, 0, into, at, name.length);
        return at + name.length;
    }

    private static int varintSize(int value) {
        int size = 1;
        while (value >= 0x80) {
            value >>>= 7;
            size++;
        }
        return size;
    }
}
