"""What people do across tables: the rated queue (matchmaking) and club nights."""
