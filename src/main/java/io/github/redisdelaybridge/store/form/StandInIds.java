package io.github.redisdelaybridge.store.form;

import io.github.redisdelaybridge.store.Keys;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The id of a message as claim.lua and listPending.lua return it: the id Redis expanded from the member, or, when Redis
 * could not (a packed member whose stem code the slot's names hash lacks), a stand-in built from the member.
 */
public final class StandInIds {

    /** How the id of a packed member that could not be resolved is shown (claim, listPending): then the member in hex. */
    public static final String UNRESOLVABLE_ID_PREFIX = "unresolvable-member:";

    private StandInIds() {
    }

    /** {@code id} as text, or the member's stand-in when the script returned no id (nil). */
    public static String idOf(byte[] id, byte[] member, Keys keys, int slot) {
        return id == null ? standIn(member, keys, slot) : new String(id, StandardCharsets.UTF_8);
    }

    /**
     * {@code unresolvable-member:} and the member in hex, then {@code ~<n>} with the smallest n that puts the stand-in
     * into the member's slot, when it is not there already. The message is dead-lettered under this id, into its own
     * slot's store, so the id must map to that slot for the admin API to find the dead letter again ({@link Keys#slotOf}:
     * computed from the id).
     */
    public static String standIn(byte[] member, Keys keys, int slot) {
        String plain = UNRESOLVABLE_ID_PREFIX + HexFormat.of().formatHex(member);
        String id = plain;
        for (int n = 1; keys.slotOf(id) != slot && n <= 1_000_000; n++) {
            id = plain + "~" + n;
        }
        return id;
    }
}
