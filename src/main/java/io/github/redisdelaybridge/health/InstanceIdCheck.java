package io.github.redisdelaybridge.health;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness: DOWN while another running bridge uses this instance's id ({@link InstanceIdGuard}). Not a liveness
 * failure: restarting either process with the same id would change nothing; a new id for one of them does.
 */
public final class InstanceIdCheck extends AbstractHealthCheck {

    private final InstanceIdGuard guard;
    private final String instanceId;

    public InstanceIdCheck(InstanceIdGuard guard, String instanceId) {
        super("redis-delay-bridge", "instance-id");
        this.guard = guard;
        this.instanceId = instanceId;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("instance.id", instanceId);
        String other = guard.sharedWith();
        if (other == null) {
            builder.up();
        } else {
            builder.message("bridge.instance-id " + instanceId + " is also used by another running bridge (" + other
                    + "); give every instance an id of its own");
            builder.down();
        }
    }
}
