package io.github.redisdelaybridge.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.dispatch.parking.ParkedTargets;
import io.github.redisdelaybridge.message.ParsedTargets;
import io.github.redisdelaybridge.store.parking.ParkedCounts;
import io.github.redisdelaybridge.store.parking.ParkingStore;
import io.github.redisdelaybridge.store.parking.TargetState;
import io.github.redisdelaybridge.store.parking.TargetStates;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin endpoints of parked and paused targets: {@code GET /api/targets} lists every target that is parked (failing), paused
 * or returning its parked messages, with how many it has parked; {@code POST /api/targets/pause} and
 * {@code POST /api/targets/resume} with {@code {"target": "kafka:orders"}} pause a target (its messages are parked: not
 * delivered, not dead-lettered, counted) and resume it (its parked messages return to the due set at the return rate).
 * Pausing a paused target, or resuming one that is not paused, is a 409 that says its state.
 */
public final class TargetParkingApi {

    private static final Logger LOG = LoggerFactory.getLogger(TargetParkingApi.class);
    private static final String TARGET = "target";
    private static final String EXAMPLE = "{\"target\": \"kafka:orders\"}";

    private final ParkedTargets parked;
    private final ParkingStore store;
    private final long redisTimeoutMs;

    public TargetParkingApi(ParkedTargets parked, ParkingStore store, long redisTimeoutMs) {
        this.parked = parked;
        this.store = store;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /** Camel bean method: {@code GET /api/targets}. */
    public ApiResponse list() {
        TargetStates read = StoreAnswers.await(store.states(), redisTimeoutMs);
        List<TargetState> states = new ArrayList<>(read.states());
        states.sort(Comparator.comparing(TargetState::target));
        ParkedCounts counts = StoreAnswers.await(store.count(states.stream().map(TargetState::target).toList()),
                redisTimeoutMs * Math.max(1, store.slotCount()));
        List<Map<String, Object>> targets = new ArrayList<>(states.size());
        for (TargetState state : states) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("target", state.target());
            view.put("state", state.kind().name().toLowerCase(java.util.Locale.ROOT));
            view.put("since", state.since());
            view.put("parked", counts.of(state.target()));
            view.put("nextProbeAt", state.kind() == TargetState.Kind.PARKED ? state.nextProbeAt() : null);
            targets.add(view);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("redisTime", read.redisNow());
        body.put("parked", counts.parked());
        body.put("targets", targets);
        return ApiResponse.ok(body);
    }

    /** Camel bean method: {@code POST /api/targets/pause} with {@code {"target": "..."}}. */
    public ApiResponse pause(Exchange exchange) {
        String target = target(exchange);
        boolean changed = StoreAnswers.await(parked.pause(target), redisTimeoutMs * Math.max(2, store.slotCount()));
        if (!changed) {
            throw ApiException.conflict("target " + target + " is paused already");
        }
        LOG.info("paused target {} (HTTP)", target);
        return ApiResponse.ok(Map.of(TARGET, target, "state", "paused"));
    }

    /** Camel bean method: {@code POST /api/targets/resume} with {@code {"target": "..."}}. */
    public ApiResponse resume(Exchange exchange) {
        String target = target(exchange);
        boolean changed = StoreAnswers.await(parked.resume(target), redisTimeoutMs * Math.max(2, store.slotCount()));
        if (!changed) {
            TargetState state = parked.stateOf(target);
            throw ApiException.conflict("target " + target + " is not paused" + (state == null ? ""
                    : " (it is " + state.kind().name().toLowerCase(java.util.Locale.ROOT) + ")"));
        }
        LOG.info("resumed target {} (HTTP)", target);
        return ApiResponse.ok(Map.of(TARGET, target, "state", "returning"));
    }

    /** The body's target, checked as a target text ({@code kafka:<topic>} or {@code rabbitmq:<exchange>/<routing key>}). */
    private static String target(Exchange exchange) {
        JsonNode json = ApiRequests.jsonObject(ApiRequests.body(exchange), Set.of(TARGET), EXAMPLE);
        String target = ApiRequests.text(json, TARGET);
        if (target == null) {
            throw ApiException.badRequest("the body names no target: " + EXAMPLE);
        }
        try {
            ParsedTargets.shared().parse(target);
        } catch (IllegalArgumentException invalid) {
            throw ApiException.badRequest("not a target: " + invalid.getMessage());
        }
        return target;
    }
}
