package io.github.redisdelaybridge.store.script;

import io.github.redisdelaybridge.store.Keys;

/**
 * A key of one slot as the scripts take it, under the name their headers give it ({@code KEYS[n] <name>}). A script's
 * contract lists its keys with these, in its header's order ({@link ScriptContract}); {@link Keys} builds the key.
 */
public enum SlotKey {

    DUE("due set", Keys::due),
    IN_FLIGHT("in-flight set", Keys::inFlight),
    PAYLOADS("payloads", Keys::payloads),
    ATTEMPTS("attempts", Keys::attempts),
    DELIVERED("delivered set", Keys::delivered),
    CANCELLED("cancelled set", Keys::cancelled),
    DEAD_LETTERS("dead letters", Keys::deadLetters),
    DEAD_LETTER_INDEX("dead-letter index", Keys::deadLetterIndex),
    DEAD_LETTER_BYTES("dead-letter bytes", Keys::deadLetterBytes),
    NAMES("names", Keys::names),
    FAILING_SINCE("failing since", Keys::failingSince),
    CLAIMS("claim records", Keys::claims),
    GROUP_INDEX_PREFIX("group index prefix", Keys::groupIndexPrefix),
    LEASE_CLAIMERS("lease claimers", Keys::leaseClaimers),
    ORIGINAL_DUE("original due", Keys::originalDue),
    PARKED_TARGETS("parked targets", Keys::parkedTargets),
    PARKED_INDEX_PREFIX("parked index prefix", Keys::parkedIndexPrefix),
    PARKING_EXEMPTIONS("parking exemptions", Keys::parkingExemptions);

    /** One of {@link Keys}'s key methods (an int slot: no boxing per key). */
    private interface KeyOfSlot {
        String of(Keys keys, int slot);
    }

    private final String headerName;
    private final KeyOfSlot key;

    SlotKey(String headerName, KeyOfSlot key) {
        this.headerName = headerName;
        this.key = key;
    }

    /** The name the scripts' headers give this key: {@code KEYS[n] <headerName>  <type> ...}. */
    String headerName() {
        return headerName;
    }

    String of(Keys keys, int slot) {
        return key.of(keys, slot);
    }
}
