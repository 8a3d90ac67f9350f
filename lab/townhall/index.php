<?php
// The town hall's web page (lab/townhall): rows of the MariaDB table townhall.notes, and the node
// that served them. GET ?add=TEXT commits one row first (autocommit) and prints "added ID".
header('Content-Type: text/plain');
mysqli_report(MYSQLI_REPORT_OFF);
$db = @new mysqli('localhost', 'web', 'townhall', 'townhall', 0, '/run/mysqld/mysqld.sock');
if ($db->connect_errno) {
    http_response_code(503);
    echo "database unavailable: " . $db->connect_error . "\n";
    exit;
}
if (isset($_GET['add'])) {
    $st = $db->prepare('INSERT INTO notes (body) VALUES (?)');
    $st->bind_param('s', $_GET['add']);
    if (!$st->execute()) {
        http_response_code(500);
        echo "insert failed: " . $db->error . "\n";
        exit;
    }
    echo "added " . $db->insert_id . "\n";
}
echo "served-by: " . php_uname('n') . "\n";
$res = $db->query('SELECT id, body FROM notes ORDER BY id');
while ($row = $res->fetch_row()) {
    echo "row " . $row[0] . " " . $row[1] . "\n";
}
