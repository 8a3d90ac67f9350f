<%@ page contentType="text/plain" %>served-by: <%= new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/sys/kernel/hostname"))).trim() %>
Tomcat <%= application.getServerInfo() %> at the town hall
