<?php return array(5 => 'a', 'b', "c\n" => [true, null, -1.5], /* x */ 'k' => 'it\'s');
