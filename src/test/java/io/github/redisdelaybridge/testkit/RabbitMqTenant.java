package io.github.redisdelaybridge.testkit;

/**
 * A virtual host and a user of its own on the shared RabbitMQ, for a test that must not connect as guest to "/":
 * the user (and guest, for the test's own client) may do anything in the virtual host. {@link #close()} deletes
 * both, so the shared broker is left as it was even when the test fails.
 */
public record RabbitMqTenant(String virtualHost, String user, String password) implements AutoCloseable {

    /** Creates a virtual host {@code <prefix>-vhost-<n>} and a user {@code <prefix>-user-<n>} with a password of its own. */
    public static RabbitMqTenant create(String prefix) {
        String suffix = Long.toString(System.nanoTime(), 36);
        RabbitMqTenant tenant = new RabbitMqTenant(prefix + "-vhost-" + suffix, prefix + "-user-" + suffix, "amqp-pw-" + suffix);
        RabbitMqTestClient.rabbitmqctl("add_vhost", tenant.virtualHost);
        try {
            RabbitMqTestClient.rabbitmqctl("add_user", tenant.user, tenant.password);
            RabbitMqTestClient.rabbitmqctl("set_permissions", "-p", tenant.virtualHost, tenant.user, ".*", ".*", ".*");
            RabbitMqTestClient.rabbitmqctl("set_permissions", "-p", tenant.virtualHost, "guest", ".*", ".*", ".*");
            return tenant;
        } catch (RuntimeException e) {
            tenant.close();
            throw e;
        }
    }

    @Override
    public void close() {
        RabbitMqTestClient.rabbitmqctl("delete_vhost", virtualHost);
        try {
            RabbitMqTestClient.rabbitmqctl("delete_user", user);
        } catch (IllegalStateException notCreated) {
            // add_user failed before
        }
    }
}
