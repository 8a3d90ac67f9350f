package org.jheartbeat.core.control;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * Binds a Unix socket so that it appears at its path with its final mode and group, never before.
 * bind(2) creates the socket file with the process umask (Java cannot set a mode at bind, and the
 * umask is process-wide, so changing it would race other threads): a socket bound at its path and
 * chmod'ed afterwards can be connected to by anyone the umask lets in, in between. Here it is bound
 * inside a fresh directory only root can enter (mode 700), given its mode and group there, and then
 * renamed into place; rename(2) is atomic and a Unix socket keeps working under its new name.
 */
public final class UnixSocketFiles {
    private UnixSocketFiles() {
    }

    /**
     * @param server an open, unbound Unix-domain server channel
     * @param socket the path the socket must have; a stale file there is replaced
     * @param mode   its mode, e.g. {@code rw-rw----}
     * @param group  its group, if that group exists (else it keeps the process's group)
     * @return whether {@code group} was found and set
     * @throws IOException if the socket cannot be bound or moved (the temporary directory is removed)
     */
    public static boolean bind(ServerSocketChannel server, Path socket, String mode, Optional<String> group)
            throws IOException {
        Path parent = socket.toAbsolutePath().getParent();
        Path tmpDir = Files.createTempDirectory(parent, "." + socket.getFileName() + ".",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path tmp = tmpDir.resolve("s");
        try {
            server.bind(UnixDomainSocketAddress.of(tmp));
            Set<PosixFilePermission> perms = PosixFilePermissions.fromString(mode);
            Files.setPosixFilePermissions(tmp, perms);
            boolean grouped = false;
            if (group.isPresent()) {
                try {
                    GroupPrincipal g = tmp.getFileSystem().getUserPrincipalLookupService()
                            .lookupPrincipalByGroupName(group.get());
                    Files.getFileAttributeView(tmp, PosixFileAttributeView.class).setGroup(g);
                    grouped = true;
                } catch (java.nio.file.attribute.UserPrincipalNotFoundException e) {
                    grouped = false;
                }
            }
            Files.move(tmp, socket, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return grouped;
        } finally {
            Files.deleteIfExists(tmp);
            Files.deleteIfExists(tmpDir);
        }
    }
}
