/**
 * What Redis stores, read back on the bridge's side: packed members into message ids, payloads in the stored form into
 * the wire form, and the stand-in id of a member that cannot be read.
 */
package io.github.redisdelaybridge.store.form;
