package org.jheartbeat.core.wire;

/**
 * A well-formed packet whose netstring trailer or classic {@code auth=} field does not verify with
 * the local authkeys (wrong key, unknown index, malformed or missing auth string). Always has reason
 * {@link WireFormatException.Reason#AUTH_FAILED}. Heartbeat 3.0.6 drops such packets without updating
 * any state (cluster-glue {@code cl_netstring.c is_auth_netstring}, heartbeat {@code
 * ha_msg_internal.c isauthentic}).
 */
public final class AuthenticationException extends WireFormatException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed to verify; never includes key material */
    public AuthenticationException(String message) {
        super(Reason.AUTH_FAILED, message);
    }
}
