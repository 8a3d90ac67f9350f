/**
 * Reading the XML that agents print ({@code meta-data} of OCF resource agents and of ClusterLabs
 * fence agents), with one hardened parser: bounded size, no entities, no external DTD or schema.
 */
package org.jheartbeat.core.xml;
